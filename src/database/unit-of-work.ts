import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { performance } from 'node:perf_hooks';
import { currentScope, DeadlinePassed } from './call-scope';
import { MysqlGroupCommit } from './mysql-group-commit';
import { runAsUnitBody, unitCaller } from './outside-call-guard';
import { SqliteGroupCommit } from './sqlite-group-commit';

/** One database transaction plus work to run only once it has committed (mail, job kicks). */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * Runs a unit of work (a body of database writes) in a transaction. The contract a
 * caller relies on:
 * - **Its own.** No unit shares its fate with another request's: a unit is undone alone
 *   when it fails, and never run again because another one failed. The writes of one
 *   event-loop turn share a COMMIT, each unit in its own savepoint (sqlite-group-commit.ts,
 *   mysql-group-commit.ts); a lone write on MySQL/MariaDB has a transaction of its own
 *   (mysql-writer.ts).
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
 */
@Injectable()
export class UnitOfWork {
  private readonly sqliteWriter: SqliteGroupCommit;
  private readonly mysqlWriter: MysqlGroupCommit;

  constructor(private readonly dataSource: DataSource) {
    this.sqliteWriter = new SqliteGroupCommit(() => this.dataSource.createQueryRunner());
    this.mysqlWriter = new MysqlGroupCommit(() => this.dataSource.createQueryRunner());
  }

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let callbacks: Array<() => void | Promise<void>> = [];
    const caller = unitCaller();
    // Read here, in the caller's scope: the body may run from a group started by another call.
    const scope = currentScope();
    const unitEnd = scope?.unitEnd;
    const deadline = scope?.deadline;
    const inTransaction = (manager: EntityManager): Promise<T> => {
      // A unit that waited (for a connection, a group) past its request's deadline never
      // starts: its caller is answered 503 and nothing of it is written (its savepoint).
      if (deadline !== undefined && performance.now() >= deadline) {
        return Promise.reject(new DeadlinePassed('before its write could start'));
      }
      // Only the run that commits leaves its callbacks.
      const run: typeof callbacks = (callbacks = []);
      const body = () => work({ manager, afterCommit: (fn) => run.push(fn) });
      if (!unitEnd) return runAsUnitBody(caller, body);
      return runAsUnitBody(caller, async () => {
        const result = await body();
        await unitEnd(manager);
        return result;
      });
    };

    const result = this.isMysql
      ? await this.mysqlWriter.run(inTransaction)
      : await this.sqliteWriter.run(inTransaction);
    for (const fn of callbacks) await fn();
    return result;
  }
}
