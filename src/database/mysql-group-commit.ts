import { QueryRunner } from 'typeorm';
import { deferInsertsIn, flushDeferredInserts } from './deferred-inserts';
import { GroupCommitQueue, QueuedUnit as Queued, QueuedWork } from './group-commit-queue';

/** At most this many writes share one MySQL/MariaDB transaction. */
export const MAX_MYSQL_GROUP_UNITS = 16;

/**
 * Group commit for MySQL/MariaDB. Each statement is a round trip that costs the server
 * and the database 100–150 µs of CPU, and a small write is mostly START TRANSACTION and
 * COMMIT around a few statements. The writes that arrive in one turn of the event loop
 * run, at the next turn, one after another in one transaction on one connection, and one
 * COMMIT ends them all; several groups run at once on the pool's connections, as single
 * writes did.
 *
 * A group is only a shortcut: if any unit of it fails, the whole transaction is rolled
 * back and every unit runs again in a transaction of its own, where the failing one
 * fails alone (MySQL has no cheap way to undo one unit: a savepoint and its release are
 * two more round trips per unit). If the COMMIT itself fails, whether it took effect is
 * unknown, so nothing is run again and every unit fails.
 */
export class MysqlGroupCommit extends GroupCommitQueue {
  /** Starts the groups and returns: they run at once, each on a connection of its own. */
  protected drain(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, MAX_MYSQL_GROUP_UNITS);
      void (group.length === 1 ? this.runAlone(group[0]) : this.runGroup(group));
    }
    return Promise.resolve();
  }

  private async runGroup(group: Queued[]): Promise<void> {
    const runner = this.runner();
    const results: unknown[] = [];
    let failedInUnit = false;
    try {
      await runner.startTransaction();
      failedInUnit = true;
      const manager = runner.manager;
      deferInsertsIn(manager);
      for (const unit of group) results.push(await unit.work(manager));
      await flushDeferredInserts(manager);
      failedInUnit = false;
      await runner.commitTransaction();
    } catch (error) {
      const rolledBack = await rollBack(runner);
      await runner.release();
      if (failedInUnit && rolledBack) {
        await Promise.all(group.map((unit) => this.runAlone(unit)));
      } else {
        for (const unit of group) unit.reject(error);
      }
      return;
    }
    await runner.release();
    group.forEach((unit, i) => unit.resolve(results[i]));
  }

  /**
   * Work that must never run twice (it calls outside the database and needs the answer
   * inside the transaction, as a gateway refund under the payment's lock): a transaction
   * of its own, started now, never grouped and never run again.
   */
  runOnce<T>(work: QueuedWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => void this.runAlone({ work, resolve, reject }));
  }

  /** The unit in a transaction of its own. */
  private async runAlone(unit: Queued): Promise<void> {
    const runner = this.runner();
    try {
      await runner.startTransaction();
      const manager = runner.manager;
      deferInsertsIn(manager);
      const result = await unit.work(manager);
      await flushDeferredInserts(manager);
      await runner.commitTransaction();
      unit.resolve(result);
    } catch (error) {
      await rollBack(runner);
      unit.reject(error);
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
