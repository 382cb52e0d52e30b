/**
 * Usage ingestion throughput: records per second through `POST /usage?action=bulk` (1,000
 * records a request) and through single `POST /usage`, on the real server (dist/main.js)
 * beside the bare baseline (the same usage_record rows, the line looked up, one INSERT
 * per request) on the same database, in the same run. See bench/README.md "Usage ingestion".
 */
import { BenchDatabase } from './bench-database';
import { ChildServer } from './child-server';
import {
  basicAuthorization,
  cleanUp,
  fail,
  machineLines,
  PlannedScenario,
  reportFailures,
  runScenarios,
  prepareRun,
  startBaseline,
  startServer,
  step,
} from './harness';
import { BenchOptions, readOptions } from './options';
import { memoryLine, recordsTable } from './report';
import { usageScenarios } from './scenarios';

/** Records in one bulk request: SPEC's maximum. */
const BULK_SIZE = 1000;
/** Issue 20's targets, in records per second. */
const BULK_TARGET = { recordsPerRequest: BULK_SIZE, targetPerSec: 10_000 };
const SINGLE_TARGET = { recordsPerRequest: 1, targetPerSec: 2_000 };
/** Subscriptions (one customer and one metered line each) the records are spread over. */
const METERED_LINES = 20;

async function main(): Promise<void> {
  const options = readOptions();
  const { workDir, database, password } = prepareRun(options, 'billing-bench-usage-');
  const authorization = basicAuthorization(password);
  const running: ChildServer[] = [];
  try {
    await step('create the database', () => database.create());
    const server = await step('start the server (its migrations make the schema)', () =>
      startServer(database, password, options.serverNodeArgs),
    );
    running.push(server);
    const lineIds = await step(`create ${METERED_LINES} subscriptions with a metered line`, () =>
      createMeteredLines(server.url, authorization),
    );
    const baseline = await step('start the baseline', () => startBaseline(database, workDir));
    running.push(baseline);
    const load = { seconds: options.seconds, warmupSeconds: options.warmupSeconds, authorization };
    const chosen = usageScenarios(lineIds, BULK_SIZE).filter((s) => options.usageScenarios.includes(s.key));
    const planned: PlannedScenario[] = chosen.map((scenario) => ({
      scenario,
      settings: { ...load, connections: scenario.key === 'bulk' ? options.bulkConnections : options.connections },
    }));
    const results = await runScenarios({ server, baseline }, planned, options.rounds);
    const table = recordsTable(
      results.map((result, i) => ({ result, ...(chosen[i].key === 'bulk' ? BULK_TARGET : SINGLE_TARGET) })),
    );
    process.stdout.write(`\n${await header(options, database)}\n\n${table}\n\n`);
    process.stdout.write(`${memoryLine(server.peakRssBytes(), baseline.peakRssBytes())}\n`);
    reportFailures(results);
  } finally {
    for (const child of running) await child.stop();
    await cleanUp(options, database, workDir);
  }
}

/** A metered item, then per line a customer and a subscription holding that item; the lines' ids. */
async function createMeteredLines(baseUrl: string, authorization: string): Promise<number[]> {
  const post = (path: string, body: unknown): Promise<{ id: number }> =>
    call(baseUrl, authorization, 'POST', path, body) as Promise<{ id: number }>;
  const item = await post('/api/v3/item', {
    name: 'Bench API calls',
    external_key: 'bench-api-calls',
    is_usage: true,
    pricemodel: { pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: 0.01 }] },
  });
  const lineIds: number[] = [];
  for (let n = 1; n <= METERED_LINES; n++) {
    const customer = await post('/api/v3/customer', { company: `Metered ${n}`, external_key: `metered-${n}` });
    const pkg = await post('/api/v3/package', { customer_id: customer.id, line_items: [{ item_id: item.id }] });
    const read = (await call(baseUrl, authorization, 'GET', `/api/v3/package/${pkg.id}`)) as {
      line_items: Array<{ line_item_id: number }>;
    };
    lineIds.push(read.line_items[0].line_item_id);
  }
  return lineIds;
}

async function call(
  baseUrl: string,
  authorization: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { authorization, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { response: unknown }).response;
}

async function header(options: BenchOptions, database: BenchDatabase): Promise<string> {
  return [
    ...(await machineLines(database)),
    `Load: autocannon in the bench process, pipelining 1; bulk ${options.bulkConnections} connections of ${BULK_SIZE.toLocaleString('en-US')} records a request, single ${options.connections} connections; a warm-up round of ${options.warmupSeconds} s per scenario and target, then per scenario and target ${options.warmupSeconds} s warm-up + ${options.rounds} rounds of ${options.seconds} s measured (server and baseline back to back per round; medians reported)`,
    `Data: ${METERED_LINES} subscriptions with one metered line each; every record names a random one by line_item_id and carries a new external_key`,
  ].join('\n');
}

main().catch(fail);
