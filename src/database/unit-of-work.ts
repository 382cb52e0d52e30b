import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { MysqlGroupCommit } from './mysql-group-commit';
import { SqliteGroupCommit } from './sqlite-group-commit';

/** One database transaction plus work to run only once it has committed (mail, job kicks). */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * Runs writes in transactions, with group commit: the writes queued together share one
 * transaction and one COMMIT. SQLite has one connection, so its writes go through a single
 * writer that never interleaves them (sqlite-group-commit.ts); on MySQL/MariaDB several
 * groups run at once on the pool's connections, isolated by row locks
 * (mysql-group-commit.ts). A unit of work may therefore run again after a rollback:
 * whatever it does outside the database belongs in `afterCommit`.
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

  /**
   * `once`: the work calls outside the database before it commits (a gateway refund) and
   * must never run twice. On MySQL/MariaDB it gets a transaction of its own, outside any
   * group; the SQLite writer never runs a unit twice.
   */
  async run<T>(work: (tx: Tx) => Promise<T>, options: { once?: boolean } = {}): Promise<T> {
    let callbacks: Array<() => void | Promise<void>> = [];
    const inTransaction = (manager: EntityManager): Promise<T> => {
      // Only the attempt that commits leaves its callbacks.
      const attempt: typeof callbacks = (callbacks = []);
      return work({ manager, afterCommit: (fn) => attempt.push(fn) });
    };

    const result = !this.isMysql
      ? await this.sqliteWriter.run(inTransaction)
      : options.once
        ? await this.mysqlWriter.runOnce(inTransaction)
        : await this.mysqlWriter.run(inTransaction);
    for (const fn of callbacks) await fn();
    return result;
  }
}
