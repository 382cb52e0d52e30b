import 'reflect-metadata';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
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

  afterEach(() => dataSource.destroy());

  function extensions(): CustomerExtensions {
    const ext = new CustomerExtensions();
    ext.addFiguresSource({
      selects: [
        "SELECT 'invoice' AS kind, customer_id, amount FROM charge WHERE kind = :test_inv AND customer_id IN (:...ids)",
      ],
      params: { test_inv: 'inv' },
      kinds: ['invoice'],
      add: (f: CustomerFigures, _kind, amount: Decimal) => {
        f.total = f.total.plus(amount);
        f.balance = f.balance.plus(amount);
      },
    });
    ext.addFiguresSource({
      selects: [
        "SELECT 'paid' AS kind, customer_id, amount FROM charge WHERE kind = 'pay' AND customer_id IN (:...ids)",
      ],
      kinds: ['paid'],
      add: (f, _kind, amount) => {
        f.paid = f.paid.plus(amount);
        f.balance = f.balance.minus(amount);
      },
    });
    return ext;
  }

  it('runs every source and sums each kind in decimal, per customer', async () => {
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

  it('answers without a query for no customers, and refuses a kind claimed by two sources', async () => {
    const ext = extensions();
    expect((await ext.figuresFor(dataSource.manager, [])).size).toBe(0);
    expect(() => ext.addFiguresSource({ selects: ['SELECT 1'], kinds: ['paid'], add: () => undefined })).toThrow(
      'kind "paid" has two sources',
    );
  });
});
