import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SqliteGroupCommit } from './sqlite-group-commit';

/** One database transaction plus work to run only once it has committed (mail, job kicks). */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * Runs writes in transactions. MySQL/MariaDB isolates them with row locks; SQLite has
 * one connection, so writes go through a single writer that never interleaves them and
 * commits the ones queued together at once (sqlite-group-commit.ts).
 */
@Injectable()
export class UnitOfWork {
  private readonly sqliteWriter: SqliteGroupCommit;

  constructor(private readonly dataSource: DataSource) {
    this.sqliteWriter = new SqliteGroupCommit(() => this.dataSource.createQueryRunner());
  }

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void | Promise<void>> = [];
    const inTransaction = (manager: EntityManager): Promise<T> =>
      work({ manager, afterCommit: (fn) => callbacks.push(fn) });

    const result = this.isMysql
      ? await this.dataSource.transaction(inTransaction)
      : await this.sqliteWriter.run(inTransaction);
    for (const fn of callbacks) await fn();
    return result;
  }
}
