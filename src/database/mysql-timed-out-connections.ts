import { DataSource } from 'typeorm';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';
import { msToDeadline } from './call-scope';

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
  // mysql2's pool waits for a free connection without end: bounded here by the connect timeout
  // (or what is left of the request's deadline), a 503 with nothing run.
  const acquireMs = (options as { connectTimeout?: number }).connectTimeout ?? timeoutMs;
  const watched = new WeakSet<PooledConnection>();
  const pool = (dataSource.driver as MysqlDriver).pool as Pool;
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback) => {
    let waiting = true;
    const timer = setTimeout(
      () => {
        waiting = false;
        callback(
          Object.assign(new Error('No pooled database connection came free in time'), { code: 'POOL_ACQUIRE_TIMEOUT' }),
          undefined as unknown as PooledConnection,
        );
      },
      Math.max(0, Math.min(acquireMs, msToDeadline())),
    );
    getConnection((error, connection) => {
      if (!waiting) {
        // Given up on: back to the pool for the next caller.
        if (!error) (connection as PooledConnection & { release?: () => void }).release?.();
        return;
      }
      waiting = false;
      clearTimeout(timer);
      if (!error && !watched.has(connection)) {
        watched.add(connection);
        watch(connection, timeoutMs);
      }
      callback(error, connection);
    });
  };
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
      // The statement timeout, or what is left of the request's deadline if less.
      const timer = setTimeout(
        () => {
          answered = true;
          connection.destroy();
          callback(
            Object.assign(new Error('The statement got no answer in time'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }),
          );
        },
        Math.max(0, Math.min(timeoutMs, msToDeadline())),
      );
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
