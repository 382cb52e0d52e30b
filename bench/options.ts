/** Benchmark settings, read once from the environment (see bench/README.md). */
import { SCENARIO_KEYS, ScenarioKey, USAGE_SCENARIO_KEYS, UsageScenarioKey } from './scenarios';

export type BenchDbType = 'sqlite' | 'mysql';

export interface MysqlAccess {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Scratch database, created and dropped by the run. */
  database: string;
}

export interface BenchOptions {
  db: BenchDbType;
  mysql: MysqlAccess;
  /** Measured seconds per round, scenario and target. */
  seconds: number;
  /** Rounds per scenario; each measures the server and the baseline back to back. */
  rounds: number;
  /** Unmeasured seconds before each measurement. */
  warmupSeconds: number;
  connections: number;
  /** Concurrent connections for requests of many records (`npm run bench:usage`'s bulk). */
  bulkConnections: number;
  customers: number;
  /** Keep the temporary folder and the scratch database for inspection. */
  keep: boolean;
  /** The scenarios to run (`BENCH_SCENARIOS`, default all). */
  scenarios: ScenarioKey[];
  /** `npm run bench:usage`'s scenarios (`BENCH_USAGE_SCENARIOS`, default both). */
  usageScenarios: UsageScenarioKey[];
  /** Extra `node` flags for the real server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
  serverNodeArgs: string[];
}

type Env = Record<string, string | undefined>;

export function readOptions(env: Env = process.env): BenchOptions {
  return {
    db: readDbType(env.BENCH_DB),
    mysql: {
      host: env.BENCH_MYSQL_HOST ?? '127.0.0.1',
      port: readInt(env, 'BENCH_MYSQL_PORT', 3306, 1),
      user: env.BENCH_MYSQL_USER ?? 'root',
      password: env.BENCH_MYSQL_PASSWORD ?? '',
      database: readDatabaseName(env.BENCH_MYSQL_DATABASE),
    },
    seconds: readInt(env, 'BENCH_SECONDS', 5, 1),
    rounds: readInt(env, 'BENCH_ROUNDS', 3, 1),
    warmupSeconds: readInt(env, 'BENCH_WARMUP', 2, 0),
    connections: readInt(env, 'BENCH_CONNECTIONS', 32, 1),
    bulkConnections: readInt(env, 'BENCH_BULK_CONNECTIONS', 4, 1),
    customers: readInt(env, 'BENCH_CUSTOMERS', 100_000, 1),
    keep: env.BENCH_KEEP === '1',
    scenarios: readScenarios('BENCH_SCENARIOS', env.BENCH_SCENARIOS, SCENARIO_KEYS),
    usageScenarios: readScenarios('BENCH_USAGE_SCENARIOS', env.BENCH_USAGE_SCENARIOS, USAGE_SCENARIO_KEYS),
    serverNodeArgs: (env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter((arg) => arg !== ''),
  };
}

/** The scratch database: its own name per concurrent run (sessions sharing one MariaDB drop each other's). */
function readDatabaseName(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'billing_bench';
  // Interpolated into CREATE/DROP DATABASE: a plain identifier only.
  if (!/^[A-Za-z0-9_]{1,64}$/.test(raw)) {
    throw new Error(`BENCH_MYSQL_DATABASE must be letters, digits and _ (got "${raw}")`);
  }
  return raw;
}

function readDbType(raw: string | undefined): BenchDbType {
  if (raw === undefined || raw === '' || raw === 'sqlite') return 'sqlite';
  if (raw === 'mysql') return 'mysql';
  throw new Error(`BENCH_DB must be sqlite or mysql (got "${raw}")`);
}

/** The keys named in `raw` (all by default), in their usual order. */
function readScenarios<K extends string>(name: string, raw: string | undefined, all: readonly K[]): K[] {
  if (raw === undefined || raw.trim() === '') return [...all];
  const keys = raw.split(',').map((key) => key.trim());
  const unknown = keys.filter((key) => !(all as readonly string[]).includes(key));
  if (unknown.length > 0 || keys.length === 0) {
    throw new Error(`${name} must list some of ${all.join(', ')} (got "${raw}")`);
  }
  return all.filter((key) => keys.includes(key));
}

function readInt(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  }
  return Number(raw);
}
