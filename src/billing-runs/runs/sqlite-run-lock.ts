import { randomBytes } from 'node:crypto';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { DataSourceOptions } from 'typeorm';
import { singleWriterFile } from 'src/database/dialect';

/** How often a waiting run looks whether the run in progress has ended. */
const POLL_MS = 250;

/** Runs of this process holding the lock (they share its one connection and group commits). */
let heldHere = 0;

/** The run holds the lock until `release`. */
export interface HeldRunLock {
  kind: 'held';
  release(): Promise<void>;
}

/** Another process's run holds it (after waiting as long as allowed). */
export interface BusyRunLock {
  kind: 'busy';
  holderPid: number;
}

/**
 * One billing run at a time on a SQLite file (issue 43): SQLite has one writer, and two runs
 * at once starve each other's writes past the busy timeout ("database is locked"), failing
 * subscriptions the other run then bills. The lock is a file beside the database holding
 * the process id of the run; a holder that died (kill -9) is noticed by its process id and
 * its lock taken over. Runs within one process share it (one connection, one writer).
 * MySQL/MariaDB runs need none (row locks, `--workers`): `acquire` holds at once there, and
 * on an in-memory SQLite database.
 */
export async function acquireRunLock(
  options: DataSourceOptions,
  waitMs: number,
  onWait?: (holderPid: number) => void,
): Promise<HeldRunLock | BusyRunLock> {
  const database = singleWriterFile(options);
  if (database === null) return { kind: 'held', release: () => Promise.resolve() };
  const path = `${database}.billing-run.lock`;
  const held: HeldRunLock = {
    kind: 'held',
    release: async () => {
      if (--heldHere === 0) await releaseOwn(path);
    },
  };
  if (heldHere > 0) {
    heldHere++;
    return held;
  }
  const until = Date.now() + waitMs; // stop-check: deliberate, waits on another process's lock in real time; a moved test clock must not end the wait
  let told = false;
  for (;;) {
    if (heldHere > 0 || (await tryCreate(path))) {
      heldHere++;
      return held;
    }
    const holderPid = await holderOf(path);
    if (holderPid !== null && !isAlive(holderPid)) {
      await takeOverStale(path, holderPid);
      continue;
    }
    if (Date.now() >= until) return { kind: 'busy', holderPid: holderPid ?? 0 }; // stop-check: deliberate, the same real-time wait
    if (!told && holderPid !== null) onWait?.(holderPid);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Creates the lock with this process's id, all at once (written aside, then hard-linked: never seen half-written). */
async function tryCreate(path: string): Promise<boolean> {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(aside, String(process.pid));
  try {
    await link(aside, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

async function holderOf(path: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(path, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // released meanwhile
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Moves a dead holder's lock aside and deletes it; if what was moved turns out to be a new
 * holder's (another waiter took over first), it is put back.
 */
async function takeOverStale(path: string, deadPid: number): Promise<void> {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await rename(path, aside);
  } catch {
    return; // gone meanwhile
  }
  const moved = await holderOf(aside);
  if (moved !== deadPid && moved !== null) {
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

async function releaseOwn(path: string): Promise<void> {
  if ((await holderOf(path)) === process.pid) await unlink(path).catch(() => undefined);
}
