import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { CustomerFiguresSource } from 'src/customers/customer-figures';
import { amountSum } from 'src/core/money/amount-sum';
import { openMemorySqlite } from 'src/database/memory-sqlite.spec-helper';
import { CustomerPaymentsExtension } from './customer-payments.extension';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';

/** The extension is the payments' figures source. */
function paymentsSource(): CustomerFiguresSource {
  return new CustomerPaymentsExtension();
}

describe('CustomerPaymentsExtension figures on SQLite', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = await openMemorySqlite([Transaction, TransactionApplied]);
  });
  afterAll(() => dataSource.destroy());

  // SQLite has no statistics, so left to itself it picks the status (or type) index, which
  // holds nearly every payment: each customer read would then walk all of them.
  it('sums the payments of the customer at hand only, through its customer index', async () => {
    const source = paymentsSource();
    const sum = amountSum(dataSource.manager).sql;
    const sums = Object.values(source.sums).map((subquery) => subquery(sum, ':customer'));
    expect(sums).toHaveLength(2);
    for (const sum of sums) {
      const [sql, values] = dataSource.driver.escapeQueryWithParameters(`EXPLAIN QUERY PLAN SELECT ${sum}`, {
        ...source.params,
        customer: 7,
      });
      const plan = (await dataSource.query<Array<{ detail: string }>>(sql, values)).map((row) => row.detail);
      expect(plan.join('\n')).toMatch(/SEARCH (t|ta) USING INDEX \S+ \((invoice_)?customer_id=\?\)/);
      expect(plan.join('\n')).not.toMatch(/status_str|transaction_type|SCAN (t|ta)\b/);
    }
  });
});
