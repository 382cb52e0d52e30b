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
import { BULK_SIZE, createMeteredLines, METERED_LINES } from './metered-lines';
import { memoryLine, recordsTable } from './report';
import { usageScenarios } from './scenarios';

/** Issue 20's targets, in records per second. */
const BULK_TARGET = { recordsPerRequest: BULK_SIZE, targetPerSec: 10_000 };
const SINGLE_TARGET = { recordsPerRequest: 1, targetPerSec: 2_000 };

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

async function header(options: BenchOptions, database: BenchDatabase): Promise<string> {
  return [
    ...(await machineLines(database)),
    `Load: autocannon in the bench process, pipelining 1; bulk ${options.bulkConnections} connections of ${BULK_SIZE.toLocaleString('en-US')} records a request, single ${options.connections} connections; a warm-up round of ${options.warmupSeconds} s per scenario and target, then per scenario and target ${options.warmupSeconds} s warm-up + ${options.rounds} rounds of ${options.seconds} s measured (server and baseline back to back per round; medians reported)`,
    `Data: ${METERED_LINES} subscriptions with one metered line each; every record names a random one by line_item_id and carries a new external_key`,
  ].join('\n');
}

main().catch(fail);
