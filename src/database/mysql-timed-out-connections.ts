import { DataSource } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';

type Callback = (error: (Error & { code?: string }) | null, ...results: unknown[]) => void;

interface PooledConnection {
  query(...args: unknown[]): unknown;
  execute(...args: unknown[]): unknown;
  destroy(): void;
}

interface Pool {
  getConnection(callback: (error: Error | null, connection: PooledConnection) => void): void;
}

/**
 * Bounds every statement on a MySQL/MariaDB connection by the statement timeout
 * (DB_STATEMENT_TIMEOUT_MS), whatever mysql2 does first (its own query timeout does not
 * cover the PREPARE before an `execute`). A statement without an answer in time fails
 * with PROTOCOL_SEQUENCE_TIMEOUT (a 503) and its connection is destroyed: later
 * statements must not queue behind it, and a stalled statement must not reach the server
 * and run after its client was told it failed (the server rolls back the transaction the
 * connection had open). The pool opens fresh connections when the server answers again.
 */
export function dropTimedOutConnections(dataSource: DataSource): DataSource {
  const options = dataSource.options as { type: string; maxQueryExecutionTime?: number };
  if (options.type !== 'mysql' || !options.maxQueryExecutionTime) return dataSource;
  const timeoutMs = options.maxQueryExecutionTime;
  const watched = new WeakSet<PooledConnection>();
  const pool = (dataSource.driver as MysqlDriver).pool as Pool;
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) =>
    getConnection((error, connection) => {
      if (!error && !watched.has(connection)) {
        watched.add(connection);
        watch(connection, timeoutMs);
      }
      callback(error, connection);
    });
  return dataSource;
}

function watch(connection: PooledConnection, timeoutMs: number): void {
  for (const method of ['query', 'execute'] as const) {
    const original = connection[method].bind(connection);
    connection[method] = (...args: unknown[]) => {
      const at = args.findIndex((arg) => typeof arg === 'function');
      if (at === -1) return original(...args);
      const callback = args[at] as Callback;
      let answered = false;
      const timer = setTimeout(() => {
        answered = true;
        connection.destroy();
        callback(
          Object.assign(new Error('The statement got no answer in time'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }),
        );
      }, timeoutMs);
      args[at] = ((error, ...results) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        callback(error, ...results);
      }) satisfies Callback;
      return original(...args);
    };
  }
}
