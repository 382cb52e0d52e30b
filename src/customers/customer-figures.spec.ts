import 'reflect-metadata';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import * as rawQuery from 'src/database/raw-query';
import { CustomerExtensions, CustomerFigures } from './customer-figures';

describe('CustomerExtensions.figuresFor', () => {
  let dataSource: DataSource;

  beforeEach(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', logging: false });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE charge (customer_id INTEGER, amount DECIMAL(20,2), kind TEXT)');
    await dataSource.query(
      "INSERT INTO charge VALUES (1, '0.10', 'inv'), (1, '0.20', 'inv'), (2, '5.00', 'inv'), (1, '0.05', 'pay'), (3, '9.99', 'inv')",
    );
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await dataSource.destroy();
  });

  function extensions(): CustomerExtensions {
    const ext = new CustomerExtensions();
    ext.addFiguresSource({
      selects: (sum) => [
        `SELECT 'invoice' AS kind, customer_id, ${sum('amount')} AS amount FROM charge
         WHERE kind = :test_inv AND customer_id IN (:...ids) GROUP BY customer_id`,
      ],
      params: { test_inv: 'inv' },
      kinds: ['invoice'],
      add: (f: CustomerFigures, _kind, amount: Decimal) => {
        f.total = f.total.plus(amount);
        f.balance = f.balance.plus(amount);
      },
    });
    ext.addFiguresSource({
      selects: (sum) => [
        `SELECT 'paid' AS kind, customer_id, ${sum('amount')} AS amount FROM charge
         WHERE kind = 'pay' AND customer_id IN (:...ids) GROUP BY customer_id`,
      ],
      kinds: ['paid'],
      add: (f, _kind, amount) => {
        f.paid = f.paid.plus(amount);
        f.balance = f.balance.minus(amount);
      },
    });
    return ext;
  }

  /** Records the rows each figures statement returns. */
  function spyRows(): () => Promise<unknown[][]> {
    const spy = jest.spyOn(rawQuery, 'queryRows');
    return () => Promise.all(spy.mock.results.map((result) => result.value as Promise<unknown[]>));
  }

  it('runs every source and sums each kind exactly, per customer', async () => {
    const figures = await extensions().figuresFor(dataSource.manager, [1, 2, 4]);
    expect([...figures.keys()]).toEqual([1, 2, 4]);
    const one = figures.get(1)!;
    // 0.1 + 0.2 in floats would be 0.30000000000000004.
    expect(one.total.toString()).toBe('0.3');
    expect(one.paid.toString()).toBe('0.05');
    expect(one.balance.toString()).toBe('0.25');
    expect(figures.get(2)!.total.toString()).toBe('5');
    // A customer with no rows has zero figures; a customer not asked for is not reported.
    expect(figures.get(4)!.balance.toString()).toBe('0');
    expect(figures.has(3)).toBe(false);
  });

  it('lets the database add many amounts, exactly, and answers one row per kind and customer', async () => {
    const charges = (customer: number, amount: string, count: number) =>
      Array.from({ length: count }, () => `(${customer}, '${amount}', 'inv')`).join(', ');
    await dataSource.query(
      `INSERT INTO charge VALUES ${charges(5, '0.01', 1000)}, ${charges(6, '0.07', 100)},
       (5, '0.10', 'pay'), (5, '0.20', 'pay'), (5, '-0.05', 'pay')`,
    );
    // SQLite's own SUM of the amounts is a float sum: 7.000000000000001.
    const [{ float }] = await dataSource.query<Array<{ float: number }>>(
      'SELECT SUM(amount) AS float FROM charge WHERE customer_id = 6',
    );
    expect(float).not.toBe(7);

    const rows = spyRows();
    const figures = await extensions().figuresFor(dataSource.manager, [5, 6, 1, 2]);
    const five = figures.get(5)!;
    expect(five.total.toFixed(2)).toBe('10.00');
    expect(five.paid.toString()).toBe('0.25');
    expect(five.balance.toString()).toBe('9.75');
    expect(figures.get(6)!.total.toString()).toBe('7');
    // 1,111 charges of four customers come back as six rows: four invoice sums, two paid.
    const returned = (await rows()).flat();
    expect(returned).toHaveLength(6);
    expect(returned).toEqual(
      expect.arrayContaining([
        { kind: 'invoice', customer_id: 5, amount: '1000' },
        { kind: 'invoice', customer_id: 6, amount: '700' },
        { kind: 'paid', customer_id: 5, amount: '25' },
      ]),
    );
  });

  it('answers without a query for no customers, and refuses a kind claimed by two sources', async () => {
    const ext = extensions();
    const rows = spyRows();
    expect((await ext.figuresFor(dataSource.manager, [])).size).toBe(0);
    expect(await rows()).toEqual([]);
    expect(() => ext.addFiguresSource({ selects: () => ['SELECT 1'], kinds: ['paid'], add: () => undefined })).toThrow(
      'kind "paid" has two sources',
    );
  });
});
