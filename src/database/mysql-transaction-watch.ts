/** What mysql2's callback API offers on a pooled connection (TypeORM's `query`, our `execute`). */
type Call = (...args: unknown[]) => unknown;
export interface WatchedConnection {
  query: Call;
  execute: Call;
}

/** Errors after which MySQL/MariaDB no longer holds the transaction's work as it was. */
const LOSING_CODES = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);

/** Refuses a statement sent after the transaction was lost (it would run in autocommit). */
export class TransactionLost extends Error {
  readonly code = 'TRANSACTION_LOST';
  constructor(override readonly cause: unknown) {
    super('The transaction was rolled back by the database; no statement runs after that until it ends.');
    this.name = 'TransactionLost';
  }
}

/**
 * Watches every statement sent on a connection that holds a shared transaction. A
 * deadlock makes InnoDB roll the whole transaction back, after which the connection runs
 * each statement in autocommit: a unit body that caught that error and carried on, or the
 * next unit of the group, would then write for good outside any transaction. From the
 * first deadlock or lock wait timeout on, every statement but the ROLLBACK fails here with
 * `TransactionLost`, and `lost` says the transaction is gone (a lock wait timeout leaves it
 * open in InnoDB, but the writer then rolls it back whole as well).
 */
export class TransactionWatch {
  lost: unknown = null;
  private readonly before: WatchedConnection;

  constructor(private readonly connection: WatchedConnection) {
    this.before = { query: connection.query, execute: connection.execute };
    for (const method of ['query', 'execute'] as const) {
      const original = connection[method];
      connection[method] = (...args: unknown[]): unknown => this.call(original, args);
    }
  }

  /**
   * Gives the connection the methods it had back (before it returns to the pool): the
   * statement timeout's wrappers (mysql-timed-out-connections.ts) are its own properties
   * too, and deleting them would leave the connection without a timeout from then on.
   */
  stop(): void {
    this.connection.query = this.before.query;
    this.connection.execute = this.before.execute;
  }

  private call(original: Call, args: unknown[]): unknown {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') return original.apply(this.connection, args);
    const first = args[0] as string | { sql?: string };
    const sql = typeof first === 'string' ? first : first?.sql;
    if (this.lost !== null && sql !== 'ROLLBACK') {
      process.nextTick(callback, new TransactionLost(this.lost));
      return undefined;
    }
    args[last] = (error: { code?: string } | null, ...rest: unknown[]) => {
      if (error && LOSING_CODES.has(error.code ?? '')) this.lost ??= error;
      return (callback as Call)(error, ...rest);
    };
    return original.apply(this.connection, args);
  }
}
