import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { API_PASS, API_USER } from './test-app';

/** Starting a child (ts-node compiles the app as it loads) may take this long on a busy machine. */
const START_TIMEOUT_MS = 120_000;
const ROOT = resolve(__dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the process wrote so far (its JSON log lines). */
  output(): string;
  /** Resolves when the process exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The real server (src/main.ts: its signal handling, its logger) as a child process, run by
 * ts-node without type-checking (the test run type-checks), so no build step is needed.
 * Resolves once /healthz answers (or, for APP_ROLE=worker, which serves no HTTP, once it
 * logs that it started).
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', 'ts-node/register', '-r', 'tsconfig-paths/register', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      TS_NODE_TRANSPILE_ONLY: 'true',
      PORT: String(port),
      API_USERNAME: API_USER,
      API_PASSWORD: API_PASS,
      RATE_LIMIT_PER_MINUTE: '0',
      BILLING_CRON: '',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = { child, port, url, output: () => chunks.join(''), exited };
  const deadline = Date.now() + START_TIMEOUT_MS;
  let gone = false;
  void exited.then(() => (gone = true));
  const ready = (): Promise<boolean> =>
    env.APP_ROLE === 'worker' ? Promise.resolve(server.output().includes('Worker started')) : answers(`${url}/healthz`);
  while (!(await ready())) {
    if (gone || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${server.output().slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return server;
}

/** Stops a server that a test left running (its own SIGKILL: the test is over). */
export async function killServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/** A scratch database for child processes: a temporary SQLite file, or a MariaDB database. */
export async function scratchDatabase(
  type = process.env.DB_TYPE ?? 'sqlite',
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const name = `billing_p_${randomBytes(5).toString('hex')}`;
  if (type !== 'mysql') {
    const path = resolve(tmpdir(), `${name}.sqlite`);
    return {
      env: { DB_TYPE: 'sqlite', DB_PATH: path },
      drop: async () => {
        for (const suffix of ['', '-wal', '-shm']) await rm(`${path}${suffix}`, { force: true });
      },
    };
  }
  const admin = (sql: string) => mysqlAdmin(sql);
  await admin(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  return { env: { DB_TYPE: 'mysql', DB_NAME: name }, drop: () => admin(`DROP DATABASE IF EXISTS \`${name}\``) };
}

async function mysqlAdmin(sql: string): Promise<void> {
  const connection = await createConnection({
    host: process.env.DB_HOST ?? '127.0.0.1',
    port: Number(process.env.DB_PORT ?? 3306),
    user: process.env.DB_USER ?? 'root',
    password: process.env.DB_PASSWORD ?? '',
  });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
