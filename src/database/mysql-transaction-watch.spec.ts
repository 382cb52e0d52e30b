import { TransactionLost, TransactionWatch, WatchedConnection } from './mysql-transaction-watch';

type Callback = (error: { code?: string } | null, result?: unknown) => void;

/** A pooled connection whose methods answer at once, with `failWith` for the next statement. */
function fakeConnection(): WatchedConnection & { sent: string[]; failWith: { code: string } | null } {
  const connection = {
    sent: [] as string[],
    failWith: null as { code: string } | null,
    query(sql: string, callback: Callback) {
      connection.sent.push(sql);
      const error = connection.failWith;
      connection.failWith = null;
      process.nextTick(callback, error, 'ok');
    },
    execute(sql: string, callback: Callback) {
      connection.query(sql, callback);
    },
  };
  return connection as never;
}

function send(connection: WatchedConnection, sql: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    connection.query(sql, (error: unknown, result: unknown) =>
      error ? reject(error instanceof Error ? error : Object.assign(new Error('failed'), error)) : resolve(result),
    ),
  );
}

describe('TransactionWatch', () => {
  it('refuses every statement but ROLLBACK after a deadlock', async () => {
    const connection = fakeConnection();
    const watch = new TransactionWatch(connection);
    connection.failWith = { code: 'ER_LOCK_DEADLOCK' };
    await expect(send(connection, 'INSERT 1')).rejects.toMatchObject({ code: 'ER_LOCK_DEADLOCK' });
    await expect(send(connection, 'INSERT 2')).rejects.toBeInstanceOf(TransactionLost);
    await expect(send(connection, 'ROLLBACK')).resolves.toBe('ok');
    expect(connection.sent).toEqual(['INSERT 1', 'ROLLBACK']);
    expect(watch.lost).toEqual({ code: 'ER_LOCK_DEADLOCK' });
  });

  it('gives back the methods the connection had, wrappers of its own included', async () => {
    const connection = fakeConnection();
    // The statement timeout wraps a pooled connection's methods once, as own properties.
    const timed: WatchedConnection = { query: connection.query, execute: connection.execute };
    const watch = new TransactionWatch(connection);
    expect(connection.query).not.toBe(timed.query);
    watch.stop();
    expect(connection.query).toBe(timed.query);
    expect(connection.execute).toBe(timed.execute);
    await expect(send(connection, 'SELECT 1')).resolves.toBe('ok');
  });
});
