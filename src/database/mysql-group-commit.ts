import { performance } from 'node:perf_hooks';
import { EntityManager, QueryRunner } from 'typeorm';
import { commitFailure } from './commit-outcome';
import {
  deferInsertsIn,
  deferredMark,
  dropDeferredInserts,
  dropDeferredSince,
  flushDeferredInserts,
} from './deferred-inserts';
import { GroupCommitQueue, QueuedUnit as Queued } from './group-commit-queue';
import { MysqlWriter } from './mysql-writer';
import { TransactionLost, TransactionWatch, WatchedConnection } from './mysql-transaction-watch';
import { isConcurrencyConflict } from './write-conflict';

/** At most this many units share one MySQL/MariaDB transaction... */
export const MAX_MYSQL_GROUP_UNITS = 16;
/** ...and no unit joins a group open this long (the rest wait for the next group). */
export const MAX_MYSQL_GROUP_MS = 20;
/**
 * Groups (or lone units) running at once, each on a pooled connection. Units that arrive
 * while this many run wait and share the next group's COMMIT. Fewer groups in flight put
 * more units in each COMMIT (3.4 a group with 2 in flight, 1.1 with 4, measured before the
 * deferred rows moved to the group's end); more let the database work on one group while
 * this process builds the next answers. With the deferred rows at the group's end, 3 beat 2 in
 * all four alternating pairs of `npm run bench` creates (ratios 0.39/0.38, 0.39/0.38,
 * 0.41/0.38, 0.37/0.36); 1 left the server waiting, 4 was no better (bench/RESULTS.md).
 */
export const MAX_MYSQL_GROUPS_IN_FLIGHT = 3;

/** One name for every unit's savepoint: setting it again replaces the previous unit's. */
const SAVEPOINT = 'unit_of_work';

/** How one unit of a group ended. */
type UnitOutcome =
  | { kind: 'done'; result: unknown }
  /** Failed on its own: rolled back to its savepoint and rejected. */
  | { kind: 'failed'; error: unknown }
  /** Refused by the database (a unique key taken meanwhile): rolled back to its savepoint, runs again alone. */
  | { kind: 'refused' }
  /** The group's transaction is gone (deadlock, lock wait timeout, a rollback that failed). */
  | { kind: 'lost'; error: unknown; refused: boolean };

/**
 * Group commit for MySQL/MariaDB with the unit-of-work contract kept (issue 17 point 4).
 * The units queued in one turn of the event loop (up to MAX_MYSQL_GROUP_UNITS) run, at the
 * next turn, one after another in one transaction on one pooled connection, each in a
 * savepoint of its own, and one COMMIT ends them; the next turn's units form the next group,
 * which runs at once on another connection. A lone unit has a transaction of its own
 * (mysql-writer.ts). Each caller sees what a transaction of its own would give it:
 * - a unit that fails is rolled back to its savepoint and fails alone; the units before it
 *   stay, the ones after it run as if it had never run, and none runs again for it;
 * - a unit the database refused for a unique key taken meanwhile is rolled back to its
 *   savepoint and, once the group has ended, runs again in a fresh transaction of its own;
 * - when the database refuses the group's transaction (a deadlock victim: InnoDB rolls the
 *   whole group back; a lock wait timeout: the writer rolls it back whole), nothing of the
 *   group is kept and each of its units runs again in a fresh transaction of its own. From
 *   that error on no statement reaches the connection but the ROLLBACK
 *   (mysql-transaction-watch.ts), so nothing runs in autocommit;
 * - the units that ran succeed only once the COMMIT has succeeded (their `afterCommit` work
 *   runs after it); if the COMMIT fails, whether it took effect is unknown: they all fail
 *   and none runs again.
 * No run that is undone can have called outside the database (outside-call-guard.ts), so a
 * unit runs again only where the database undid it, never because a neighbour failed.
 * The units' deferred rows (revisions, events no hook wants) are written together at the
 * group's end, before its COMMIT, in one INSERT per table (not two or three per unit: 11 %
 * less server CPU per create, bench/RESULTS.md); if the database refuses them, the group is
 * undone and each of its units runs again alone, as after a deadlock.
 */
export class MysqlGroupCommit extends GroupCommitQueue {
  private readonly alone: MysqlWriter;
  private inFlight = 0;

  constructor(runner: () => QueryRunner) {
    super(runner);
    this.alone = new MysqlWriter(runner);
  }

  /**
   * Starts groups (each on a connection of its own) while fewer than
   * MAX_MYSQL_GROUPS_IN_FLIGHT run, and returns; the units that arrive meanwhile wait for a
   * group to end and go together in the next one.
   */
  protected drain(): Promise<void> {
    while (this.mayDrain()) {
      const group = this.queue.splice(0, MAX_MYSQL_GROUP_UNITS);
      this.inFlight++;
      const ran = group.length === 1 ? this.runAlone(group[0], 1) : this.runGroup(group);
      void ran.finally(() => {
        this.inFlight--;
        if (this.mayDrain()) this.schedule();
      });
    }
    return Promise.resolve();
  }

  protected override mayDrain(): boolean {
    return this.queue.length > 0 && this.inFlight < MAX_MYSQL_GROUPS_IN_FLIGHT;
  }

  /** The unit in a transaction of its own; `firstRun` 2 when the database refused its run in a group. */
  private runAlone(unit: Queued, firstRun: number): Promise<void> {
    return this.alone.run(unit.work, firstRun).then(
      (result) => unit.resolve(result),
      (error: unknown) => unit.reject(error),
    );
  }

  private async runGroup(group: Queued[]): Promise<void> {
    const runner = this.runner();
    let watch: TransactionWatch | undefined;
    try {
      watch = new TransactionWatch((await runner.connect()) as WatchedConnection);
      await runner.startTransaction();
    } catch {
      // Nothing ran: each unit tries a transaction of its own and meets its own outcome.
      watch?.stop();
      await runner.release().catch(() => undefined);
      for (const unit of group) void this.runAlone(unit, 1);
      return;
    }
    const manager = runner.manager;
    deferInsertsIn(manager);
    const finished: Array<{ unit: Queued; result: unknown }> = [];
    const again: Queued[] = [];
    const openedAt = performance.now();
    let next = 0;
    let lost: { unit: Queued; error: unknown; refused: boolean } | null = null;
    while (next < group.length && (next === 0 || performance.now() - openedAt < MAX_MYSQL_GROUP_MS)) {
      const unit = group[next++];
      const outcome = await runUnit(runner, manager, unit, watch, next === 1);
      if (outcome.kind === 'done') finished.push({ unit, result: outcome.result });
      else if (outcome.kind === 'failed') unit.reject(outcome.error);
      else if (outcome.kind === 'refused') again.push(unit);
      else {
        lost = { unit, error: outcome.error, refused: outcome.refused };
        break;
      }
    }
    const notRun = group.slice(next);

    let committed = false;
    let commitError: unknown = null;
    // The units' deferred rows, one INSERT per table for the whole group. Refused, they
    // cannot be told apart: the group is undone and its units run again alone, as after a
    // deadlock, where a row the database refuses fails its own unit only.
    const refusedAtEnd = lost === null && !(await flushed(manager));
    if (lost === null && !refusedAtEnd) {
      try {
        await runner.commitTransaction();
        committed = true;
      } catch (error) {
        commitError = error;
      }
    }
    if (!committed) {
      dropDeferredInserts(manager);
      await rollBack(runner);
    }
    watch.stop();
    await runner.release().catch(() => undefined);

    if (committed) for (const { unit, result } of finished) unit.resolve(result);
    else if (refusedAtEnd) for (const { unit } of finished) void this.runAlone(unit, 2);
    else if (lost === null) for (const { unit } of finished) unit.reject(commitFailure(commitError));
    else {
      // The database undid the whole group: each unit that ran starts afresh, alone.
      for (const { unit } of finished) void this.runAlone(unit, 2);
      if (lost.refused) void this.runAlone(lost.unit, 2);
      else lost.unit.reject(lost.error);
    }
    for (const unit of again) void this.runAlone(unit, 2);
    // Past the time cap: first in the queue, for the next group (started when this one ends).
    this.queue.unshift(...notRun);
  }
}

/**
 * Runs one unit of a group in its savepoint. The group's first unit needs none: before it
 * the transaction holds nothing, so undoing it is undoing the whole transaction, and the
 * next units start in a fresh one (a statement less per group; a ROLLBACK and a START
 * TRANSACTION more only when that unit fails).
 */
async function runUnit(
  runner: QueryRunner,
  manager: EntityManager,
  unit: Queued,
  watch: TransactionWatch,
  first: boolean,
): Promise<UnitOutcome> {
  if (!first) {
    try {
      await runner.query(`SAVEPOINT ${SAVEPOINT}`);
    } catch (error) {
      return { kind: 'lost', error, refused: true };
    }
  }
  const mark = deferredMark(manager);
  try {
    const result = await unit.work(manager);
    // A statement of this unit lost the transaction even though its body went on.
    if (watch.lost !== null) throw new TransactionLost(watch.lost);
    return { kind: 'done', result };
  } catch (error) {
    dropDeferredSince(manager, mark);
    if (watch.lost !== null) return { kind: 'lost', error, refused: true };
    try {
      if (first) await startAfresh(runner);
      else await runner.query(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
    } catch {
      return { kind: 'lost', error, refused: isConcurrencyConflict(error) };
    }
    return isConcurrencyConflict(error) ? { kind: 'refused' } : { kind: 'failed', error };
  }
}

/** Writes the group's deferred rows; false when the database refused them. */
async function flushed(manager: EntityManager): Promise<boolean> {
  try {
    await flushDeferredInserts(manager);
    return true;
  } catch {
    return false;
  }
}

/** Undoes the transaction whole (only the first unit ran in it) and opens the next one. */
async function startAfresh(runner: QueryRunner): Promise<void> {
  await runner.rollbackTransaction();
  await runner.startTransaction();
}

/** Ends a transaction that will not commit (the database may have ended it already). */
async function rollBack(runner: QueryRunner): Promise<void> {
  if (!runner.isTransactionActive) return;
  await runner.rollbackTransaction().catch(() => undefined);
}
