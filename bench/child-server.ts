import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A server running as its own Node process (one process each, so they get the same share of the machine). */
export interface ChildServer {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  /** Peak resident memory so far (VmHWM), in bytes; null where /proc is missing. */
  peakRssBytes(): number | null;
  stop(): Promise<void>;
}

export interface ChildServerSpec {
  name: string;
  /** Arguments to `node`: the script and its flags. */
  nodeArgs: string[];
  port: number;
  env: Record<string, string>;
  cwd: string;
}

/** A first start migrates an empty database: allow more on a busy host (BENCH_READY_TIMEOUT_MS). */
const READY_TIMEOUT_MS = Number(process.env.BENCH_READY_TIMEOUT_MS ?? 60_000);
const STOP_TIMEOUT_MS = 10_000;
const OUTPUT_TAIL_CHARS = 4_000;

/** Asks the OS for a port that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `node <args>` and resolves once it answers HTTP (any status) on its port. */
export async function startChildServer(spec: ChildServerSpec): Promise<ChildServer> {
  const child = spawn(process.execPath, spec.nodeArgs, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = captureOutput(child);
  const url = `http://127.0.0.1:${spec.port}`;
  try {
    await waitUntilAnswering(url, child, spec.name, output);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  const pid = child.pid ?? -1;
  return {
    name: spec.name,
    pid,
    url,
    peakRssBytes: () => readPeakRss(pid),
    stop: async () => {
      await stopProcess(child);
      const tail = output().trim();
      if (child.exitCode !== 0 && child.exitCode !== null && tail) {
        process.stderr.write(`[${spec.name}] exited with ${child.exitCode}; its output ended with:\n${tail}\n`);
      }
    },
  };
}

/** Keeps the last few thousand characters a child wrote, for error messages. */
function captureOutput(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

async function waitUntilAnswering(url: string, child: ChildProcess, name: string, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} exited before answering (code ${child.exitCode}). Output:\n${output()}`);
    }
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${name} did not answer on ${url} within ${READY_TIMEOUT_MS / 1000} s. Output:\n${output()}`);
}

/** SIGTERM, then SIGKILL if it has not exited in time. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function readPeakRss(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
