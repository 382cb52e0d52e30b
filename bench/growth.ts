/**
 * Growth benchmark (issue 42): the same reads at 10,000, 100,000 and 1,000,000 customers
 * (5 invoices and 1 subscription each), on the real server beside the bare baseline over
 * the same rows, measured in the same run. The rows are bulk-loaded straight into the
 * migrated schema, one size on top of the last. See bench/README.md, "Growth".
 */
import { execFileSync } from 'node:child_process';
import { BenchDatabase } from './bench-database';
import { ChildServer } from './child-server';
import { growthDates, growthTables, INVOICES_PER_CUSTOMER } from './growth-rows';
import {
  basicAuthorization,
  cleanUp,
  fail,
  log,
  machineLines,
  prepareRun,
  reportFailures,
  runScenarios,
  startBaseline,
  startServer,
  step,
} from './harness';
import { LoadSettings } from './load';
import { readOptions } from './options';
import { resultsTable, ScenarioResult } from './report';
import { Scenario, scenarios } from './scenarios';

/** The targets at the largest size. */
const LIST_P99_MS = 50;
const LIST_RATIO = 0.5;
const COUNT_MS = 300;
const READ_P50_GROWTH = 1.5;

function readSizes(raw = '10000,100000,1000000'): number[] {
  const sizes = raw.split(',').map((s) => Number(s.trim()));
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 100)) throw new Error(`BENCH_GROWTH_SIZES: "${raw}"`);
  return [...sizes].sort((a, b) => a - b);
}

type Kind = 'read' | 'list' | 'count';

interface GrowthScenario {
  kind: Kind;
  scenario: Scenario;
}

const random = (max: number): number => 1 + Math.floor(Math.random() * max);

const isPage = (e: { response?: unknown }): string | null =>
  Array.isArray(e.response) ? null : 'the response is not a list';
const isCount = (e: { response?: unknown }): string | null =>
  typeof e.response === 'number' ? null : 'the response is not a count';

function get(key: string, path: () => string, check: Scenario['check']): Scenario {
  return { key, name: key, method: 'GET', expectedStatus: 200, next: () => ({ path: path() }), check };
}

/** A list and its `_count` over the same `where`. */
function listAndCount(name: string, resource: string, where: () => string, extra = '&limit=10'): GrowthScenario[] {
  return [
    { kind: 'list', scenario: get(`list ${name}`, () => `/api/v3/${resource}?where=${where()}${extra}`, isPage) },
    { kind: 'count', scenario: get(`_count ${name}`, () => `/api/v3/${resource}/_count?where=${where()}`, isCount) },
  ];
}

function growthScenarios(customers: number): GrowthScenario[] {
  const [read, byState] = scenarios(customers, ['read', 'list']);
  // A prefix as a client asks it: the range [ext-<n>, ext-<n+1>), which holds ext-<n>, ext-<n>0 ...
  const prefix = (): string => {
    const n = random(Math.max(1, Math.floor(customers / 100)));
    return `external_key:GTE:ext-${n},external_key:LT:ext-${n + 1}`;
  };
  return [
    { kind: 'read', scenario: { ...read, name: 'read customer by id' } },
    { kind: 'list', scenario: { ...byState, name: 'list bill_state' } },
    {
      kind: 'count',
      scenario: get('_count bill_state', () => `/api/v3/customer/_count?where=bill_state:EQUALS:MN`, isCount),
    },
    ...listAndCount('customer_status_str=active-overdue', 'customer', () => 'customer_status_str:EQUALS:active-overdue'),
    ...listAndCount('external_key prefix', 'customer', prefix),
    { kind: 'list', scenario: get('list order=write_datetime:DESC', () => '/api/v3/customer?order=write_datetime:DESC&limit=10', isPage) },
    { kind: 'count', scenario: get('_count all customers', () => '/api/v3/customer/_count', isCount) },
    ...listAndCount('invoices of one customer', 'invoice', () => `customer_id:EQUALS:${random(customers)}`, ''),
    ...listAndCount('invoices past due', 'invoice', () => 'invoice_status_str:EQUALS:open-overdue'),
  ]; // prettier-ignore
}

interface SizeResult {
  customers: number;
  seedSeconds: number;
  load: string;
  results: Array<ScenarioResult & { kind: Kind }>;
}

function loadAverage(): string {
  return execFileSync('uptime', { encoding: 'utf8' })
    .replace(/.*load average:\s*/, '')
    .trim();
}

async function measureSize(
  database: BenchDatabase,
  workDir: string,
  password: string,
  customers: number,
  settings: { list: LoadSettings; count: LoadSettings },
  rounds: number,
  serverNodeArgs: string[],
): Promise<Array<ScenarioResult & { kind: Kind }>> {
  const running: ChildServer[] = [];
  try {
    const server = await startServer(database, password, serverNodeArgs);
    running.push(server);
    const baseline = await startBaseline(database, workDir);
    running.push(baseline);
    const planned = growthScenarios(customers);
    const results = await runScenarios(
      { server, baseline },
      planned.map(({ kind, scenario }) => ({ scenario, settings: kind === 'count' ? settings.count : settings.list })),
      rounds,
    );
    return results.map((r, i) => ({ ...r, kind: planned[i].kind }));
  } finally {
    for (const child of running) await child.stop();
  }
}

function verdicts(sizes: SizeResult[]): string[] {
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  const lines = [`Targets at ${last.customers.toLocaleString('en-US')} customers:`];
  for (const r of last.results) {
    if (r.kind === 'list') {
      const met = r.server.p99Ms < LIST_P99_MS && r.ratio >= LIST_RATIO;
      lines.push(`- ${r.scenario}: p99 ${r.server.p99Ms} ms (< ${LIST_P99_MS}), ratio ${r.ratio.toFixed(2)} (≥ ${LIST_RATIO}): ${met ? 'met' : 'NOT met'}`);
    } else if (r.kind === 'count') {
      lines.push(`- ${r.scenario}: p50 ${r.server.p50Ms} ms, p99 ${r.server.p99Ms} ms (< ${COUNT_MS}): ${r.server.p99Ms < COUNT_MS ? 'met' : 'NOT met'}`);
    } else {
      const before = first.results.find((x) => x.scenario === r.scenario)!;
      const growth = r.server.p50Ms / Math.max(before.server.p50Ms, 1);
      lines.push(`- ${r.scenario}: p50 ${r.server.p50Ms} ms against ${before.server.p50Ms} ms at ${first.customers.toLocaleString('en-US')} (×${growth.toFixed(2)}, ≤ ${READ_P50_GROWTH}): ${growth <= READ_P50_GROWTH ? 'met' : 'NOT met'}`);
    }
  }
  return lines;
} // prettier-ignore

async function main(): Promise<void> {
  const options = readOptions();
  const sizes = readSizes(process.env.BENCH_GROWTH_SIZES);
  const { workDir, database, password } = prepareRun(options, 'billing-growth-');
  const authorization = basicAuthorization(password);
  const list: LoadSettings = {
    connections: options.connections,
    seconds: options.seconds,
    warmupSeconds: options.warmupSeconds,
    authorization,
  };
  // A count is one request's latency (a report, not a page under load).
  const countConnections = Number(process.env.BENCH_COUNT_CONNECTIONS ?? 1);
  const count: LoadSettings = { ...list, connections: countConnections };
  const tables = growthTables(growthDates(new Date()));
  const done: SizeResult[] = [];
  try {
    await step('create the database', () => database.create());
    await step('migrate (first server start)', async () => (await startServer(database, password, [])).stop());
    let loaded = 0;
    for (const customers of sizes) {
      const started = process.hrtime.bigint();
      await step(`bulk-load customers ${loaded + 1}..${customers}`, () =>
        database.bulkLoad(tables, loaded + 1, customers, (n) => log(`    ${n.toLocaleString('en-US')} customers in`)),
      );
      const seedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      loaded = customers;
      const load = loadAverage();
      const results = await measureSize(database, workDir, password, customers, { list, count }, options.rounds, options.serverNodeArgs);
      done.push({ customers, seedSeconds, load, results });
      log(resultsTable(results));
    } // prettier-ignore
    const out = [...(await machineLines(database)), ''];
    out.push(
      `Load: ${options.connections} connections for reads and lists, ${countConnections} for counts; ${options.rounds} rounds of ${options.seconds} s after ${options.warmupSeconds} s warm-up per scenario and target (medians)`,
    );
    for (const size of done) {
      out.push(
        '',
        `### ${size.customers.toLocaleString('en-US')} customers, ${(size.customers * INVOICES_PER_CUSTOMER).toLocaleString('en-US')} invoices (bulk load of this step ${size.seedSeconds.toFixed(0)} s; load average before measuring ${size.load})`,
        '',
        resultsTable(size.results),
      );
    }
    out.push('', ...verdicts(done));
    process.stdout.write(`${out.join('\n')}\n`);
    reportFailures(done.flatMap((s) => s.results));
  } finally {
    await cleanUp(options, database, workDir);
  }
}

main().catch(fail);
