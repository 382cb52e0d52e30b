import { ChildProcess, execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const ARGS = ['-r', 'ts-node/register', '-r', 'tsconfig-paths/register', 'src/billing-cli.ts'];

function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', LOG_LEVEL: 'error', ...env };
}

/** `npm run billing -- <args>` as a child process (ts-node without type-checking): its exit code and output. */
export function billingCli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [...ARGS, ...args],
      { cwd: ROOT, env: cliEnv(env), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** The same, left running: the caller waits for `exited` or kills it. */
export function startBillingCli(
  env: Record<string, string>,
  args: string[],
): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [...ARGS, ...args], { cwd: ROOT, env: cliEnv(env), stdio: 'ignore' });
  return { child, exited: new Promise((done) => child.once('exit', (code) => done(code))) };
}

/** The number a summary line states (`invoices: 12`), or NaN. */
export function summaryCount(out: string, label: string): number {
  const match = new RegExp(`${label}: (\\d+)`).exec(out);
  return match ? Number(match[1]) : NaN;
}
