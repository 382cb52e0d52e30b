import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { performance } from 'node:perf_hooks';
import { currentScope, DeadlinePassed, Tx } from './call-scope';
import { fastPath } from './fast-paths';
import { MysqlGroupCommit } from './mysql-group-commit';
import { MysqlWriter } from './mysql-writer';
import { currentUnit, OutsideUnit, outsideUnit, runAsUnitBody, unitCaller } from './outside-call-guard';
import { SqliteGroupCommit } from './sqlite-group-commit';

export type { Tx } from './call-scope';

/**
 * The manager a read should use: inside a unit of work's body its transaction's (so the
 * read sees what the unit wrote, and on MariaDB waits on no lock the unit holds), else the
 * data source's. A service read that may be called from inside a unit takes it from here.
 */
export function readManager(dataSource: DataSource): EntityManager {
  return currentUnit()?.manager ?? dataSource.manager;
}

/**
 * Runs a unit of work (a body of database writes) in a transaction. The contract a
 * caller relies on:
 * - **Its own.** No unit shares its fate with another request's: a unit is undone alone
 *   when it fails, and never run again because another one failed. The writes of one
 *   event-loop turn share a COMMIT, each unit in its own savepoint (sqlite-group-commit.ts,
 *   mysql-group-commit.ts); a lone write on MySQL/MariaDB has a transaction of its own
 *   (mysql-writer.ts). With group commit off (fast-paths.ts) every unit has a transaction
 *   of its own.
 * - **No outside calls inside.** The body runs marked (outside-call-guard.ts): a gateway
 *   call, webhook delivery or mail sent from inside it throws. Outside work goes before
 *   the unit (after another unit has recorded the intent, as a payment attempt) or in
 *   `afterCommit`, which runs once, after the COMMIT, outside the mark.
 * - **Re-run only when the database refused it.** On MySQL/MariaDB a unit refused for a
 *   concurrent transaction (deadlock victim, lock wait timeout, a unique key taken by a
 *   commit since its check) is rolled back and started afresh in a transaction of its own,
 *   a bounded number of times, so the answer is what a sequential request would get. When
 *   the database refuses a group's transaction (a deadlock rolls the whole group back) or
 *   the deferred rows its units wrote together at its end, each of its units runs again in
 *   a fresh transaction of its own. Nothing of the refused
 *   run survives: its writes are undone, its `afterCommit` callbacks dropped, and it
 *   cannot have called out. A body must therefore keep its effects in the database (or
 *   in what it returns), not in variables of its caller.
 * - **Inside a unit, part of it.** A unit asked for inside another unit's body (a service
 *   method that writes, called from a unit) runs at once in the caller's transaction: it
 *   commits, fails and is re-run with the caller's unit, and its `afterCommit` work waits
 *   for the caller's COMMIT. A transaction of its own would wait for the caller's to end:
 *   a deadlock on SQLite's one writer, a lock wait against the caller on MariaDB.
 */
@Injectable()
export class UnitOfWork {
  private readonly sqliteWriter: SqliteGroupCommit;
  private readonly mysqlWriter: MysqlGroupCommit;
  /** Group commit off (fast-paths.ts): each unit in a MySQL/MariaDB transaction of its own. */
  private readonly mysqlAlone: MysqlWriter;

  constructor(private readonly dataSource: DataSource) {
    const runner = () => this.dataSource.createQueryRunner();
    this.sqliteWriter = new SqliteGroupCommit(runner);
    this.mysqlWriter = new MysqlGroupCommit(runner);
    this.mysqlAlone = new MysqlWriter(runner);
  }

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const caller = unitCaller();
    // A unit asked for inside a unit's body joins it: it commits, fails and runs again with it.
    const outer = currentUnit();
    if (outer) return work(outer);
    // Read here, in the caller's scope: the body may run from a group started by another call.
    const scope = currentScope();
    const unitEnd = scope?.unitEnd;
    const deadline = scope?.deadline;
    let callbacks: Array<(outside: OutsideUnit) => void | Promise<void>> = [];
    const inTransaction = (manager: EntityManager): Promise<T> => {
      // A unit that waited (for a connection, a group) past its request's deadline never
      // starts: its caller is answered 503 and nothing of it is written (its savepoint).
      if (deadline !== undefined && performance.now() >= deadline) {
        return Promise.reject(new DeadlinePassed('before its write could start'));
      }
      // Only the run that commits leaves its callbacks.
      const run: typeof callbacks = (callbacks = []);
      const tx: Tx = { manager, afterCommit: (fn) => run.push(fn) };
      if (!unitEnd) return runAsUnitBody(caller, tx, () => work(tx));
      return runAsUnitBody(caller, tx, async () => {
        const result = await work(tx);
        await unitEnd(manager);
        return result;
      });
    };

    const result = !this.isMysql
      ? await this.sqliteWriter.run(inTransaction)
      : fastPath('group-commit')
        ? await this.mysqlWriter.run(inTransaction)
        : await this.mysqlAlone.run(inTransaction);
    if (callbacks.length > 0) {
      const outside = outsideUnit('afterCommit work');
      for (const fn of callbacks) await fn(outside);
    }
    return result;
  }
}
