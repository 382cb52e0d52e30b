import { EntityManager, QueryFailedError } from 'typeorm';
import { executePrepared, preparedValues } from './mysql-prepared';

type Callback = (error: Error | null, result: unknown) => void;

/** A manager of the given type whose pool (and optional transaction connection) record `execute` calls. */
function fakeManager(type: string, outcome: { error?: Error; result?: unknown } = {}, inTransaction = false) {
  const execute = jest.fn((_options: unknown, _values: unknown[], callback: Callback) =>
    callback(outcome.error ?? null, outcome.result),
  );
  const txExecute = jest.fn((_options: unknown, _values: unknown[], callback: Callback) =>
    callback(outcome.error ?? null, outcome.result),
  );
  const runner = { isReleased: false, connect: jest.fn(() => Promise.resolve({ execute: txExecute })) };
  const manager = {
    connection: { options: { type }, driver: { pool: { execute } } },
    queryRunner: inTransaction ? runner : undefined,
  } as unknown as EntityManager;
  return { manager, execute, txExecute, runner };
}

describe('preparedValues', () => {
  it('binds strings, null and dates as they are, booleans and safe integers as their digits', () => {
    const date = new Date('2026-11-23T12:00:00Z');
    expect(preparedValues(['abc', null, date, true, false, 42, -7, 2 ** 53 - 1])).toEqual([
      'abc',
      null,
      date,
      '1',
      '0',
      '42',
      '-7',
      '9007199254740991',
    ]);
  });

  it.each([
    ['a fractional number (mysql2 would bind a DOUBLE, not the exact literal)', 0.1],
    ['an unsafe integer', 2 ** 53],
    ['an object', { toJSON: () => '1.00' }],
    ['an array', [1, 2]],
    ['undefined', undefined],
  ])('refuses %s', (_what, value) => {
    expect(preparedValues(['ok', value])).toBeNull();
  });
});

describe('executePrepared', () => {
  it('is not for SQLite', () => {
    const { manager, execute } = fakeManager('better-sqlite3');
    expect(executePrepared(manager, 'SELECT 1', [], false)).toBeNull();
    expect(execute).not.toHaveBeenCalled();
  });

  it('leaves a statement with a value it cannot prepare to the text protocol', () => {
    const { manager, execute } = fakeManager('mysql');
    expect(executePrepared(manager, 'SELECT ?', [1.5], false)).toBeNull();
    expect(execute).not.toHaveBeenCalled();
  });

  it('runs outside a transaction on the pool, with the bound values and the row shape asked for', async () => {
    const { manager, execute } = fakeManager('mysql', { result: [[1, 'a']] });
    await expect(executePrepared(manager, 'SELECT ?, ?', [1, 'a'], true)).resolves.toEqual([[1, 'a']]);
    expect(execute).toHaveBeenCalledWith({ sql: 'SELECT ?, ?', rowsAsArray: true }, ['1', 'a'], expect.any(Function));
  });

  it("runs inside a transaction on the transaction's connection", async () => {
    const { manager, execute, txExecute, runner } = fakeManager('mysql', { result: [] }, true);
    await executePrepared(manager, 'SELECT 1', [], false);
    expect(runner.connect).toHaveBeenCalled();
    expect(txExecute).toHaveBeenCalledTimes(1);
    expect(execute).not.toHaveBeenCalled();
  });

  it("leaves a released transaction to TypeORM's own error", () => {
    const { manager, runner } = fakeManager('mysql', {}, true);
    runner.isReleased = true;
    expect(executePrepared(manager, 'SELECT 1', [], false)).toBeNull();
  });

  it("fails with TypeORM's QueryFailedError carrying the driver's error (unique-violation checks read its code)", async () => {
    const driverError = Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' });
    const { manager } = fakeManager('mysql', { error: driverError });
    const failure = executePrepared(manager, 'INSERT INTO t VALUES (?)', ['x'], false);
    await expect(failure).rejects.toBeInstanceOf(QueryFailedError);
    await expect(failure).rejects.toMatchObject({ driverError: { code: 'ER_DUP_ENTRY' }, parameters: ['x'] });
  });
});
