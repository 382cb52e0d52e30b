import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** One database transaction plus work to run only once it has committed (mail, job kicks). */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * Runs writes in transactions. MySQL/MariaDB isolates them with row locks; SQLite has
 * one connection, so writes are queued here: a single writer, never interleaved.
 */
@Injectable()
export class UnitOfWork {
  private sqliteTail: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {}

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void | Promise<void>> = [];
    const inTransaction = (): Promise<T> =>
      this.dataSource.transaction((manager) => work({ manager, afterCommit: (fn) => callbacks.push(fn) }));

    let result: T;
    if (this.isMysql) {
      result = await inTransaction();
    } else {
      const queued = this.sqliteTail.then(inTransaction);
      this.sqliteTail = queued.catch(() => undefined);
      result = await queued;
    }
    for (const fn of callbacks) await fn();
    return result;
  }
}
