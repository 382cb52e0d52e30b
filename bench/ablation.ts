/**
 * What each of the data layer's fast paths earns (issue 40): the customer scenarios of
 * `npm run bench` and the usage scenarios of `npm run bench:usage`, on the real server
 * started once per variant of DB_FAST_PATHS (all on, each one off, none), every variant
 * paired round by round with the same bare baseline on the same database, in one run.
 * Short rounds by default (BENCH_ROUNDS=2, BENCH_SECONDS=4, BENCH_WARMUP=1), so a whole
 * table fits in one hold of the bench lock. BENCH_VARIANTS: a comma-separated subset, e.g.
 * `all,-group-commit` (a name may repeat, for alternating pairs); BENCH_SCENARIOS and
 * BENCH_USAGE_SCENARIOS pick scenarios as in the other benches. See bench/README.md "Ablation".
 */
import { FAST_PATHS } from 'src/config/app-config';
import { BenchDatabase } from './bench-database';
import { ChildServer } from './child-server';
import {
  basicAuthorization,
  cleanUp,
  fail,
  log,
  machineLines,
  PlannedScenario,
  prepareRun,
  reportFailures,
  runScenarios,
  SERVER_SCRIPT,
  startBaseline,
  startServer,
  step,
  Targets,
} from './harness';
import { BULK_SIZE, createMeteredLines } from './metered-lines';
import { BenchOptions, BenchDbType, readOptions } from './options';
import { ScenarioResult } from './report';
import { scenarios, usageScenarios } from './scenarios';

/** DB_FAST_PATHS values in the order measured: all on first and last (their spread is the run's noise). */
export function ablationVariants(db: BenchDbType, only?: string): string[] {
  // SQLite's number binding does nothing on MariaDB.
  const off = FAST_PATHS.filter((name) => db === 'sqlite' || name !== 'sqlite-number-binding').map((n) => `-${n}`);
  const all = ['all', ...off, 'none', 'all'];
  if (only === undefined || only.trim() === '') return all;
  const picked = only.split(',').map((v) => v.trim());
  const unknown = picked.filter((v) => !all.includes(v));
  if (unknown.length > 0) throw new Error(`BENCH_VARIANTS must list some of ${[...new Set(all)].join(', ')}`);
  return picked;
}

interface VariantResult {
  variant: string;
  results: ScenarioResult[];
  peakRss: number | null;
}

async function main(): Promise<void> {
  const options = shortRounds(readOptions());
  const variants = ablationVariants(options.db, process.env.BENCH_VARIANTS);
  const { workDir, database, password } = prepareRun(options, 'billing-bench-ablation-');
  const authorization = basicAuthorization(password);
  const running: ChildServer[] = [];
  try {
    await step('create the database', () => database.create());
    await step('migrate (first server start)', async () => (await startServer(database, password, [])).stop());
    // The seed writes customer ids from 1, so the API's own rows come after it.
    await step(`seed ${options.customers.toLocaleString('en-US')} customers`, () => database.seed(options.customers));
    const lineIds = await step('make the metered lines', async () => {
      const server = await startServer(database, password, []);
      try {
        return await createMeteredLines(server.url, authorization);
      } finally {
        await server.stop();
      }
    });
    const baseline = await step('start the baseline', () => startBaseline(database, workDir));
    running.push(baseline);
    const load = { seconds: options.seconds, warmupSeconds: options.warmupSeconds, authorization };
    const planned: PlannedScenario[] = [
      ...scenarios(options.customers, options.scenarios).map((scenario) => ({
        scenario,
        settings: { ...load, connections: options.connections },
      })),
      ...usageScenarios(lineIds, BULK_SIZE)
        .filter((scenario) => options.usageScenarios.includes(scenario.key))
        .map((scenario) => ({
          scenario,
          settings: { ...load, connections: scenario.key === 'bulk' ? options.bulkConnections : options.connections },
        })),
    ];
    const measured: VariantResult[] = [];
    for (const variant of variants) {
      measured.push(await measureVariant(variant, { database, password, baseline, planned, options }));
      log(row(measured[measured.length - 1]));
    }
    process.stdout.write(`\n${await header(options, database)}\n\n${table(measured)}\n`);
    reportFailures(measured.flatMap((m) => m.results));
  } finally {
    for (const child of running) await child.stop();
    await cleanUp(options, database, workDir);
  }
}

/** Short rounds unless the environment says otherwise: 5 scenarios x 8 variants must fit one lock hold. */
function shortRounds(options: BenchOptions): BenchOptions {
  const env = process.env;
  return {
    ...options,
    rounds: env.BENCH_ROUNDS ? options.rounds : 2,
    seconds: env.BENCH_SECONDS ? options.seconds : 4,
    warmupSeconds: env.BENCH_WARMUP ? options.warmupSeconds : 1,
  };
}

async function measureVariant(
  variant: string,
  run: {
    database: BenchDatabase;
    password: string;
    baseline: ChildServer;
    planned: PlannedScenario[];
    options: BenchOptions;
  },
): Promise<VariantResult> {
  const server = await step(`start the server with DB_FAST_PATHS=${variant}`, () =>
    startServer(run.database, run.password, run.options.serverNodeArgs, SERVER_SCRIPT, { DB_FAST_PATHS: variant }),
  );
  try {
    const targets: Targets = { server, baseline: run.baseline };
    const results = await runScenarios(targets, run.planned, run.options.rounds);
    return { variant, results, peakRss: server.peakRssBytes() };
  } finally {
    await server.stop();
  }
}

/** Per scenario: the server's figure (records/s for usage) and its ratio to the baseline. */
function cells(m: VariantResult): string[] {
  return m.results.map((r) => {
    const perRequest = r.scenario.includes('action=bulk') ? BULK_SIZE : 1;
    return `${Math.round(r.server.reqPerSec * perRequest).toLocaleString('en-US')} (${r.ratio.toFixed(2)})`;
  });
}

function row(m: VariantResult): string {
  const failed = m.results.reduce((n, r) => n + r.server.non2xx + r.server.errors, 0);
  const rss = m.peakRss === null ? 'n/a' : `${Math.round(m.peakRss / 2 ** 20)} MB`;
  return `| ${m.variant} | ${cells(m).join(' | ')} | ${failed} | ${rss} |`;
}

function table(measured: VariantResult[]): string {
  const names = measured[0]?.results.map((r) => r.scenario) ?? [];
  const header = `| DB_FAST_PATHS | ${names.join(' | ')} | failed | peak RSS |`;
  const rule = `| --- | ${names.map(() => '---:').join(' | ')} | ---: | ---: |`;
  return [header, rule, ...measured.map(row)].join('\n');
}

async function header(options: BenchOptions, database: BenchDatabase): Promise<string> {
  return [
    ...(await machineLines(database)),
    `Cells: server req/s (records/s for usage), then (server ÷ baseline, median of ${options.rounds} paired rounds of ${options.seconds} s, ${options.warmupSeconds} s warm-up)`,
    `Load: ${options.connections} connections (usage bulk ${options.bulkConnections}, ${BULK_SIZE} records a request); ${options.customers.toLocaleString('en-US')} seeded customers`,
  ].join('\n');
}

if (require.main === module) main().catch(fail);
