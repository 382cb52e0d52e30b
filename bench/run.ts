/**
 * HTTP benchmark of the customer endpoints: the real server (dist/main.js) beside a bare
 * Express baseline on the same database, measured in the same run. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { transpileBaseline } from './baseline-build';
import { BenchDatabase, benchDatabase } from './bench-database';
import { ChildServer, freePort, startChildServer } from './child-server';
import { LoadSettings, Measurement, measure, smokeTest, warmUp } from './load';
import { BenchOptions, readOptions } from './options';
import { combineRounds, failureWarnings, memoryLine, resultsTable, RoundPair, ScenarioResult } from './report';
import { Scenario, scenarios } from './scenarios';

const ROOT = resolve(__dirname, '..');
/** The build under test: dist/main.js, or another build (e.g. a copy of an older one) to compare. */
const SERVER_SCRIPT = resolve(process.env.BENCH_SERVER_SCRIPT ?? join(ROOT, 'dist', 'main.js'));
const USERNAME = 'bench';

interface Targets {
  server: ChildServer;
  baseline: ChildServer;
}

async function main(): Promise<void> {
  const options = readOptions();
  if (!existsSync(SERVER_SCRIPT)) {
    throw new Error(`${SERVER_SCRIPT} is missing: run \`npm run build\` first (the benchmark does not build).`);
  }
  const workDir = mkdtempSync(join(tmpdir(), 'billing-bench-'));
  const database = benchDatabase(options, workDir);
  const password = randomBytes(18).toString('base64url');
  const running: ChildServer[] = [];
  try {
    await step('create the database', () => database.create());
    await step('migrate (first server start)', async () => (await startServer(database, password, [])).stop());
    await step(`seed ${options.customers.toLocaleString('en-US')} customers`, () => database.seed(options.customers));
    const targets = await step('start the server and the baseline', async () => {
      const server = await startServer(database, password, options.serverNodeArgs);
      running.push(server);
      const baseline = await startBaseline(database, workDir);
      running.push(baseline);
      return { server, baseline };
    });
    const results = await runScenarios(targets, options, password);
    const peaks = { server: targets.server.peakRssBytes(), baseline: targets.baseline.peakRssBytes() };
    process.stdout.write(`\n${await header(options, database)}\n\n${resultsTable(results)}\n\n`);
    process.stdout.write(`${memoryLine(peaks.server, peaks.baseline)}\n`);
    reportFailures(results);
  } finally {
    for (const child of running) await child.stop();
    await cleanUp(options, database, workDir);
  }
}

/** Smoke test, a warm-up round, then every scenario measured on both targets. */
async function runScenarios(targets: Targets, options: BenchOptions, password: string): Promise<ScenarioResult[]> {
  const settings: LoadSettings = {
    connections: options.connections,
    seconds: options.seconds,
    warmupSeconds: options.warmupSeconds,
    authorization: `Basic ${Buffer.from(`${USERNAME}:${password}`).toString('base64')}`,
  };
  const list = scenarios(options.customers, options.scenarios);
  for (const scenario of list) {
    for (const target of both(targets)) await smokeTest(target.url, scenario, settings.authorization);
  }
  // A first round over every scenario, so a cold start (JIT) does not fall on the first one only.
  await step('warm-up round', async () => {
    for (const scenario of list) {
      for (const target of both(targets)) await warmUp(target.url, scenario, settings);
    }
  });
  const results: ScenarioResult[] = [];
  for (const scenario of list) {
    // Each target's own warm-up for this scenario, then rounds of back-to-back measurements
    // whose order alternates, so neither target always runs first.
    for (const target of both(targets)) await warmUp(target.url, scenario, settings);
    const pairs: RoundPair[] = [];
    for (let round = 0; round < options.rounds; round++) {
      pairs.push(await measurePair(targets, scenario, settings, round, (results.length + round) % 2 === 0));
    }
    results.push(combineRounds(scenario.name, pairs));
  }
  return results;
}

/** One round of a scenario on both targets, one after the other. */
async function measurePair(
  targets: Targets,
  scenario: Scenario,
  settings: LoadSettings,
  round: number,
  serverFirst: boolean,
): Promise<RoundPair> {
  const run = (who: keyof Targets): Promise<Measurement> =>
    step(`${scenario.name} on the ${who}, round ${round + 1}`, () => measureOn(targets[who], scenario, settings));
  if (serverFirst) {
    const server = await run('server');
    return { server, baseline: await run('baseline') };
  }
  const baseline = await run('baseline');
  return { server: await run('server'), baseline };
}

function both(targets: Targets): ChildServer[] {
  return [targets.server, targets.baseline];
}

async function measureOn(target: ChildServer, scenario: Scenario, settings: LoadSettings): Promise<Measurement> {
  const m = await measure(target.url, scenario, settings);
  log(`    ${Math.round(m.reqPerSec)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, non-2xx ${m.non2xx}`);
  return m;
}

async function startServer(database: BenchDatabase, password: string, nodeFlags: string[]): Promise<ChildServer> {
  const port = await freePort();
  return startChildServer({
    name: 'server',
    nodeArgs: [...nodeFlags, SERVER_SCRIPT],
    port,
    cwd: ROOT,
    env: {
      ...database.env,
      // A build copied outside the checkout still finds the packages.
      NODE_PATH: join(ROOT, 'node_modules'),
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      API_USERNAME: USERNAME,
      API_PASSWORD: password,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      // Nothing but the requests under test: no billing timer, no Redis, no SMTP.
      BILLING_CRON: '',
      REDIS_URL: '',
      SMTP_URL: '',
      TEST_CLOCK: 'false',
    },
  });
}

async function startBaseline(database: BenchDatabase, workDir: string): Promise<ChildServer> {
  const port = await freePort();
  return startChildServer({
    name: 'baseline',
    nodeArgs: [transpileBaseline(workDir)],
    port,
    cwd: ROOT,
    env: {
      ...database.env,
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      API_USERNAME: USERNAME,
      NODE_PATH: join(ROOT, 'node_modules'),
    },
  });
}

async function header(options: BenchOptions, database: BenchDatabase): Promise<string> {
  const cpu = cpus();
  return [
    `Date: ${new Date().toISOString()}`,
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}`,
    `Database: ${await database.describe()}`,
    `Load: autocannon in the bench process, ${options.connections} connections, pipelining 1; a warm-up round of ${options.warmupSeconds} s per scenario and target, then per scenario and target ${options.warmupSeconds} s warm-up + ${options.rounds} rounds of ${options.seconds} s measured (server and baseline back to back per round; medians reported)`,
    `Data: ${options.customers.toLocaleString('en-US')} seeded customers`,
  ].join('\n');
}

function reportFailures(results: ScenarioResult[]): void {
  const warnings = failureWarnings(results);
  if (warnings.length === 0) return;
  process.stdout.write(`\n${warnings.join('\n')}\n!!! Figures with failed requests are not comparable.\n`);
  process.exitCode = 1;
}

async function cleanUp(options: BenchOptions, database: BenchDatabase, workDir: string): Promise<void> {
  if (options.keep) {
    log(`kept ${workDir}${options.db === 'mysql' ? ` and database ${options.mysql.database}` : ''}`);
    return;
  }
  await database.dispose();
  rmSync(workDir, { recursive: true, force: true });
}

async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  log(`${what} ...`);
  const result = await work();
  log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
