import { EntityManager, QueryRunner } from 'typeorm';
import { commitFailure } from './commit-outcome';
import { deferInsertsIn, flushDeferredInserts } from './deferred-inserts';
import { isUniqueViolation } from './unique-violation';
import { isConcurrencyConflict, WriteConflict } from './write-conflict';

/** Runs of one unit at most: the first, then fresh starts after a concurrency conflict. */
export const MAX_MYSQL_RUNS = 4;

/**
 * A unit in a MySQL/MariaDB transaction of its own, on a pooled connection: a lone unit,
 * or one that a group (mysql-group-commit.ts) hands back because the database refused it.
 *
 * A unit the database refused because of a concurrent transaction (deadlock victim, lock
 * wait timeout, unique key taken meanwhile: `isConcurrencyConflict`), before COMMIT and
 * with its rollback done, starts afresh, at most MAX_MYSQL_RUNS times: nothing of the
 * refused run is left in the database, and it cannot have called outside it (the guard
 * in outside-call-guard.ts throws). A failed COMMIT is never retried (whether it took
 * effect is unknown).
 */
export class MysqlWriter {
  constructor(private readonly runner: () => QueryRunner) {}

  /** `firstRun` > 1 when the unit already had a run that the database refused (in a group). */
  async run<T>(work: (manager: EntityManager) => Promise<T>, firstRun = 1): Promise<T> {
    for (let run = firstRun; ; run++) {
      const outcome = await this.runOnce(work);
      if (outcome.ok) return outcome.result;
      if (!outcome.retryable) throw outcome.error;
      // A key still taken after fresh runs is a real duplicate, answered as one (a 400 for
      // a client, insert-if-absent for internal writers); only lock conflicts become 409s.
      if (run >= MAX_MYSQL_RUNS)
        throw isUniqueViolation(outcome.error) ? outcome.error : new WriteConflict(outcome.error);
    }
  }

  private async runOnce<T>(
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<{ ok: true; result: T } | { ok: false; error: unknown; retryable: boolean }> {
    const runner = this.runner();
    let committing = false;
    try {
      await runner.startTransaction();
      const manager = runner.manager;
      deferInsertsIn(manager);
      const result = await work(manager);
      await flushDeferredInserts(manager);
      committing = true;
      await runner.commitTransaction();
      return { ok: true, result };
    } catch (error) {
      const rolledBack = await rollBack(runner);
      if (committing) return { ok: false, error: commitFailure(error), retryable: false };
      return { ok: false, error, retryable: rolledBack && isConcurrencyConflict(error) };
    } finally {
      await runner.release();
    }
  }
}

/** Ends a failed transaction; false when that failed too (the connection is then suspect). */
async function rollBack(runner: QueryRunner): Promise<boolean> {
  if (!runner.isTransactionActive) return true;
  try {
    await runner.rollbackTransaction();
    return true;
  } catch {
    return false;
  }
}
