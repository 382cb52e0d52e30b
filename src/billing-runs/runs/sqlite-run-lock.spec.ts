import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireRunLock } from './sqlite-run-lock';

describe('acquireRunLock (one billing run at a time on a SQLite file)', () => {
  let dir: string;
  let database: string;
  const options = () => ({ type: 'better-sqlite3' as const, database });
  const lockFile = () => `${database}.billing-run.lock`;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'run-lock-'));
    database = join(dir, 'billing.sqlite');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('holds the lock with this process id, shares it within the process, and removes it when the last run ends', async () => {
    const first = await acquireRunLock(options(), 0);
    const second = await acquireRunLock(options(), 0);
    expect([first.kind, second.kind]).toEqual(['held', 'held']);
    expect(await readFile(lockFile(), 'utf8')).toBe(String(process.pid));
    if (first.kind === 'held') await first.release();
    expect(existsSync(lockFile())).toBe(true);
    if (second.kind === 'held') await second.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it("reports another live process's run without waiting past the bound", async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await writeFile(lockFile(), String(other.pid));
      const waited: number[] = [];
      const lock = await acquireRunLock(options(), 300, (pid) => waited.push(pid));
      expect(lock).toEqual({ kind: 'busy', holderPid: other.pid });
      expect(waited).toEqual([other.pid]);
    } finally {
      other.kill();
    }
  });

  it('takes over the lock of a run that died (kill -9 leaves its file behind)', async () => {
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => dead.once('exit', resolve));
    await writeFile(lockFile(), String(dead.pid));
    const lock = await acquireRunLock(options(), 0);
    expect(lock.kind).toBe('held');
    expect(await readFile(lockFile(), 'utf8')).toBe(String(process.pid));
    if (lock.kind === 'held') await lock.release();
  });

  it('needs no lock on an in-memory database or on MySQL', async () => {
    expect((await acquireRunLock({ type: 'better-sqlite3', database: ':memory:' }, 0)).kind).toBe('held');
    expect((await acquireRunLock({ type: 'mysql' }, 0)).kind).toBe('held');
    expect(existsSync(lockFile())).toBe(false);
  });
});
