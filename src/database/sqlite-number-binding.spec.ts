import { DataSource } from 'typeorm';
import { bindNumbersOnSqlite } from './sqlite-number-binding';

describe('bindNumbersOnSqlite', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = bindNumbersOnSqlite(new DataSource({ type: 'better-sqlite3', database: ':memory:' }));
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, amount REAL)');
    await dataSource.query("INSERT INTO t VALUES (1, 'one', 1.5), (2, 'two', 2.25), (3, '3', 3)");
  });
  afterAll(() => dataSource.destroy());

  const escape = (sql: string, parameters: Record<string, unknown>) =>
    dataSource.driver.escapeQueryWithParameters(sql, parameters);

  it('binds numbers instead of writing them into the SQL text', () => {
    const [first, firstValues] = escape('SELECT * FROM t WHERE id = :id', { id: 1 });
    const [second, secondValues] = escape('SELECT * FROM t WHERE id = :id', { id: 2 });
    expect(first).toBe(second);
    expect(first).not.toContain('1');
    expect(firstValues).toEqual([1n]);
    expect(secondValues).toEqual([2n]);
  });

  it('keeps the other parameter kinds as the driver binds them', () => {
    const [, values] = escape('SELECT :flag, :name, :...ids, :fraction', {
      flag: true,
      name: 'x',
      ids: [4, 5],
      fraction: 0.5,
    });
    expect(values).toEqual([1, 'x', 4n, 5n, 0.5]);
  });

  it('finds the same rows as before: integers, fractions and text compared with numbers', async () => {
    const qb = () => dataSource.createQueryBuilder().select('t.name', 'name').from('t', 't');
    expect(await qb().where('t.id = :id', { id: 2 }).getRawMany()).toEqual([{ name: 'two' }]);
    expect(await qb().where('t.amount > :min', { min: 1.75 }).orderBy('t.id').getRawMany()).toEqual([
      { name: 'two' },
      { name: '3' },
    ]);
    expect(await qb().where('t.name = :n', { n: 3 }).getRawMany()).toEqual([{ name: '3' }]);
  });
});
