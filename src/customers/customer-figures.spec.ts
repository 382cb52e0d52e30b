import 'reflect-metadata';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { CustomerExtensions, CustomerFigures } from './customer-figures';

describe('CustomerExtensions.figureColumns', () => {
  let dataSource: DataSource;

  beforeEach(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', logging: false });
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE customer (customer_id INTEGER PRIMARY KEY)');
    await dataSource.query('INSERT INTO customer VALUES (1), (2), (3), (4), (5), (6)');
    await dataSource.query('CREATE TABLE charge (customer_id INTEGER, amount DECIMAL(20,2), kind TEXT)');
    await dataSource.query(
      "INSERT INTO charge VALUES (1, '0.10', 'inv'), (1, '0.20', 'inv'), (2, '5.00', 'inv'), (1, '0.05', 'pay'), (3, '9.99', 'inv')",
    );
  });

  afterEach(() => dataSource.destroy());

  function extensions(): CustomerExtensions {
    const ext = new CustomerExtensions();
    ext.addFiguresSource({
      sums: {
        invoice: (sum, customerId) =>
          `(SELECT ${sum('amount')} FROM charge WHERE kind = :test_inv AND customer_id = ${customerId})`,
      },
      params: { test_inv: 'inv' },
      add: (f: CustomerFigures, _kind, amount: Decimal) => {
        f.total = f.total.plus(amount);
        f.balance = f.balance.plus(amount);
      },
    });
    ext.addFiguresSource({
      sums: {
        paid: (sum, customerId) =>
          `(SELECT ${sum('amount')} FROM charge WHERE kind = 'pay' AND customer_id = ${customerId})`,
      },
      add: (f, _kind, amount) => {
        f.paid = f.paid.plus(amount);
        f.balance = f.balance.minus(amount);
      },
    });
    return ext;
  }

  /** The figures of the given customers, read as extra columns of one customer SELECT. */
  async function figuresOf(ext: CustomerExtensions, ids: number[]): Promise<Map<number, CustomerFigures>> {
    const columns = ext.figureColumns(dataSource.manager, 'c.customer_id');
    const [sql, values] = dataSource.driver.escapeQueryWithParameters(
      `SELECT c.customer_id, ${columns.selects.join(', ')} FROM customer c WHERE c.customer_id IN (:...ids)`,
      { ...columns.params, ids },
    );
    const rows = await dataSource.query<Array<Record<string, unknown>>>(sql, values);
    return new Map(
      rows.map((row) => {
        const { customer_id: id, ...figures } = row;
        return [id as number, columns.read(Object.values(figures))];
      }),
    );
  }

  it('sums each kind exactly, per customer, inside the customer SELECT', async () => {
    const figures = await figuresOf(extensions(), [1, 2, 4]);
    expect([...figures.keys()].sort()).toEqual([1, 2, 4]);
    const one = figures.get(1)!;
    // 0.1 + 0.2 in floats would be 0.30000000000000004.
    expect(one.total.toString()).toBe('0.3');
    expect(one.paid.toString()).toBe('0.05');
    expect(one.balance.toString()).toBe('0.25');
    expect(figures.get(2)!.total.toString()).toBe('5');
    // A customer with no rows has zero figures.
    expect(figures.get(4)!.balance.toString()).toBe('0');
    expect(figures.get(4)!.total.toString()).toBe('0');
  });

  it('lets the database add many amounts, exactly', async () => {
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

    const figures = await figuresOf(extensions(), [5, 6]);
    const five = figures.get(5)!;
    expect(five.total.toFixed(2)).toBe('10.00');
    expect(five.paid.toString()).toBe('0.25');
    expect(five.balance.toString()).toBe('9.75');
    expect(figures.get(6)!.total.toString()).toBe('7');
  });

  it('gives the columns in the order the sources came, built once per customer column', () => {
    const ext = extensions();
    const columns = ext.figureColumns(dataSource.manager, 'c.customer_id');
    // The sums only: whether the customer is overdue is its stored open_due_date.
    expect(columns.selects).toHaveLength(2);
    expect(columns.selects[0]).toMatch(
      /^\(SELECT .* FROM charge WHERE kind = :test_inv AND customer_id = c\.customer_id\) AS figure_0$/,
    );
    expect(columns.params).toEqual({ test_inv: 'inv' });
    // The SQL is built once (one prepared statement from day to day).
    expect(ext.figureColumns(dataSource.manager, 'c.customer_id')).toBe(columns);
    expect(ext.figureColumns(dataSource.manager, 'x.customer_id').selects[1]).toContain('customer_id = x.customer_id');
    // No sums at all (a customer without invoices or payments) reads as zero figures.
    const zero = columns.read([null, null]);
    expect([zero.total, zero.balance, zero.paid, zero.mrr, zero.arr].map(String)).toEqual(['0', '0', '0', '0', '0']);
  });

  it('refuses a kind claimed by two sources', () => {
    const ext = extensions();
    expect(() => ext.addFiguresSource({ sums: { paid: () => '(SELECT 1)' }, add: () => undefined })).toThrow(
      'kind "paid" has two sources',
    );
  });
});
