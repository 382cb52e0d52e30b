/**
 * What every HTTP benchmark run shares: starting the real server and the bare baseline on
 * the bench database, measuring a scenario on both back to back, progress lines, the
 * report's machine header, failures and clean-up. See bench/README.md.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { transpileBaseline } from './baseline-build';
import { BenchDatabase, benchDatabase } from './bench-database';
import { ChildServer, freePort, sleep, startChildServer } from './child-server';
import { LoadSettings, Measurement, measure, smokeTest, warmUp } from './load';
import { BenchOptions } from './options';
import { combineRounds, failureWarnings, RoundPair, ScenarioResult } from './report';
import { Scenario } from './scenarios';

export const ROOT = resolve(__dirname, '..');
/** The build under test: dist/main.js, or another build (e.g. a copy of an older one) to compare. */
export const SERVER_SCRIPT = resolve(process.env.BENCH_SERVER_SCRIPT ?? join(ROOT, 'dist', 'main.js'));
export const USERNAME = 'bench';

export interface Targets {
  server: ChildServer;
  baseline: ChildServer;
}

/** What a run starts from: a fresh temporary folder, its database (not yet created) and a new API password. */
export function prepareRun(
  options: BenchOptions,
  dirPrefix: string,
): { workDir: string; database: BenchDatabase; password: string } {
  if (!existsSync(SERVER_SCRIPT)) {
    throw new Error(`${SERVER_SCRIPT} is missing: run \`npm run build\` first (the benchmark does not build).`);
  }
  const workDir = mkdtempSync(join(tmpdir(), dirPrefix));
  return { workDir, database: benchDatabase(options, workDir), password: randomBytes(18).toString('base64url') };
}

export function basicAuthorization(password: string): string {
  return `Basic ${Buffer.from(`${USERNAME}:${password}`).toString('base64')}`;
}

/**
 * The real server on the bench database: nothing but the requests under test runs in it.
 * `env`: more settings, e.g. DB_FAST_PATHS (bench/ablation.ts).
 */
export async function startServer(
  database: BenchDatabase,
  password: string,
  nodeFlags: string[],
  script = SERVER_SCRIPT,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const port = await freePort();
  return startChildServer({
    name: 'server',
    nodeArgs: [...nodeFlags, script],
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
      ...env,
    },
  });
}

/** bench/baseline-server.ts, transpiled into `workDir` and run with plain `node`. */
export async function startBaseline(database: BenchDatabase, workDir: string): Promise<ChildServer> {
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

/** A scenario and the load it is measured under. */
export interface PlannedScenario {
  scenario: Scenario;
  settings: LoadSettings;
}

/**
 * Smoke test, a warm-up round, then every scenario measured on both targets in `rounds`
 * rounds whose order alternates, combined into medians.
 */
export async function runScenarios(
  targets: Targets,
  planned: PlannedScenario[],
  rounds: number,
): Promise<ScenarioResult[]> {
  for (const { scenario, settings } of planned) {
    for (const target of both(targets)) await smokeTest(target.url, scenario, settings.authorization);
  }
  // A first round over every scenario, so a cold start (JIT) does not fall on the first one only.
  await step('warm-up round', async () => {
    for (const { scenario, settings } of planned) {
      for (const target of both(targets)) await warmUp(target.url, scenario, settings);
    }
  });
  const results: ScenarioResult[] = [];
  for (const { scenario, settings } of planned) {
    // Each target's own warm-up for this scenario, then rounds of back-to-back measurements
    // whose order alternates, so neither target always runs first.
    for (const target of both(targets)) await warmUp(target.url, scenario, settings);
    const pairs: RoundPair[] = [];
    for (let round = 0; round < rounds; round++) {
      pairs.push(await measurePair(targets, scenario, settings, round, (results.length + round) % 2 === 0));
    }
    results.push(combineRounds(scenario.name, pairs));
  }
  return results;
}

function both(targets: Targets): ChildServer[] {
  return [targets.server, targets.baseline];
}

/**
 * Pause before each measurement, so that the requests the load generator left queued in
 * the other target are done first. On SQLite both targets write one file: a write of the
 * other process committed between a unit's read and its write fails it (SQLITE_BUSY_SNAPSHOT).
 */
const SETTLE_MS = 1_000;

/** One round of a scenario on both targets, one after the other. */
async function measurePair(
  targets: Targets,
  scenario: Scenario,
  settings: LoadSettings,
  round: number,
  serverFirst: boolean,
): Promise<RoundPair> {
  const run = (who: keyof Targets): Promise<Measurement> =>
    step(`${scenario.name} on the ${who}, round ${round + 1}`, async () => {
      await sleep(SETTLE_MS);
      return measureOn(targets[who], scenario, settings);
    });
  if (serverFirst) {
    const server = await run('server');
    return { server, baseline: await run('baseline') };
  }
  const baseline = await run('baseline');
  return { server: await run('server'), baseline };
}

async function measureOn(target: ChildServer, scenario: Scenario, settings: LoadSettings): Promise<Measurement> {
  const m = await measure(target.url, scenario, settings);
  log(`    ${Math.round(m.reqPerSec)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, non-2xx ${m.non2xx}`);
  return m;
}

/** The first lines of a report: when, on what machine, on which database. */
export async function machineLines(database: BenchDatabase): Promise<string[]> {
  const cpu = cpus();
  return [
    `Date: ${new Date().toISOString()}`,
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}`,
    `Database: ${await database.describe()}`,
  ];
}

/** Prints the loud failure lines, if any, and makes the exit code 1. */
export function reportFailures(results: ScenarioResult[]): void {
  const warnings = failureWarnings(results);
  if (warnings.length === 0) return;
  process.stdout.write(`\n${warnings.join('\n')}\n!!! Figures with failed requests are not comparable.\n`);
  process.exitCode = 1;
}

export async function cleanUp(options: BenchOptions, database: BenchDatabase, workDir: string): Promise<void> {
  if (options.keep) {
    log(`kept ${workDir}${options.db === 'mysql' ? ` and database ${options.mysql.database}` : ''}`);
    return;
  }
  await database.dispose();
  rmSync(workDir, { recursive: true, force: true });
}

export async function step<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  log(`${what} ...`);
  const result = await work();
  log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

export function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function fail(error: unknown): void {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
