import { listQueryClause } from 'src/core/query/list-query';
import { WireFormat } from 'src/core/wire/wire-format';
import { CustomersService } from 'src/customers/customers.service';
import { InvoicesService } from 'src/invoices/invoices.service';
import { FieldMap } from 'src/core/query/field-map';
import { createTestApp, TestApp } from './support/test-app';

/**
 * Issue 42: the common list filters and orders are answered from an index, on both
 * databases (EXPLAIN of the statement the list and its `_count` send, over a few thousand
 * rows and fresh statistics, so the planner chooses as it would on a full table). The
 * filters and orders that scan are listed in docs/list-indexes.md with their cost; among
 * them descending orders on MariaDB but the customers' newest first (its own index).
 */
describe('list filters use indexes', () => {
  let t: TestApp;
  let mysql: boolean;
  let timezone: string;
  const CUSTOMERS = 2_000;

  /** The EXPLAIN lines of `sql` (SQLite: the plan's details; MariaDB: table/type/key per row). */
  async function plan(sql: string, params: Record<string, unknown>): Promise<string[]> {
    const [text, values] = t.dataSource.driver.escapeQueryWithParameters(sql, params);
    if (mysql) {
      const rows = await t.dataSource.query<Array<{ table: string; type: string; key: string | null }>>(
        `EXPLAIN ${text}`,
        values,
      );
      return rows.map((r) => `${r.table} ${r.type} ${r.key ?? 'NO INDEX'}`);
    }
    const rows = await t.dataSource.query<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${text}`, values);
    return rows.map((r) => r.detail);
  }

  /** No full scan of the main table: every access to it goes through an index. */
  function expectIndexed(lines: string[], alias: string): void {
    const own = lines.filter((l) => (mysql ? l.startsWith(`${alias} `) : new RegExp(`^(SCAN|SEARCH) ${alias}\\b`).test(l)));
    expect(own.length).toBeGreaterThan(0);
    for (const line of own) {
      if (mysql) expect(line).not.toMatch(/ ALL |NO INDEX/);
      else expect(line).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/);
    }
  } // prettier-ignore

  /** The list's page and its `_count`, as the services build them from the query. */
  async function expectBothIndexed(
    table: 'customer' | 'invoice',
    fields: FieldMap,
    query: Record<string, string | undefined>,
  ): Promise<void> {
    const alias = table === 'customer' ? 'c' : 'i';
    const clause = listQueryClause(fields, { limit: '10', ...query }, {
      timezone,
      defaultOrder: { expr: `${alias}.${table}_id`, dir: 'ASC' },
    });
    const where = `${clause.where ? `${clause.where} AND ` : ''}${alias}.deleted_datetime IS NULL`;
    const page = await plan(`SELECT ${alias}.${table}_id FROM ${table} ${alias} WHERE ${where} ${clause.tail}`, clause.params);
    expect([query, page]).toEqual([query, expect.any(Array)]);
    expectIndexed(page, alias);
    if (query.where === undefined) return;
    const count = await plan(`SELECT COUNT(*) FROM ${table} ${alias} WHERE ${where}`, clause.params);
    expectIndexed(count, alias);
  } // prettier-ignore

  /** How the `_count` of `where` reads `table`: from an index alone (covering), or its rows too. */
  async function countAccess(table: 'customer' | 'invoice', fields: FieldMap, where: string): Promise<string[]> {
    const alias = table === 'customer' ? 'c' : 'i';
    const clause = listQueryClause(fields, { where }, { timezone, defaultOrder: { expr: `${alias}.${table}_id`, dir: 'ASC' } });
    const sql = `SELECT COUNT(*) FROM ${table} ${alias} WHERE ${clause.where} AND ${alias}.deleted_datetime IS NULL`;
    const [text, values] = t.dataSource.driver.escapeQueryWithParameters(sql, clause.params);
    if (mysql) {
      const rows = await t.dataSource.query<Array<{ table: string; Extra: string | null }>>(`EXPLAIN ${text}`, values);
      return rows.filter((r) => r.table === alias).map((r) => (/Using index(?! condition)/.test(r.Extra ?? '') ? 'covering' : `rows: ${r.Extra}`));
    }
    const rows = await t.dataSource.query<Array<{ detail: string }>>(`EXPLAIN QUERY PLAN ${text}`, values);
    return rows.filter((r) => new RegExp(`^(SCAN|SEARCH) ${alias}\\b`).test(r.detail)).map((r) => (/USING COVERING INDEX/.test(r.detail) ? 'covering' : `rows: ${r.detail}`));
  } // prettier-ignore

  const customerFields = (): FieldMap => t.app.get(CustomersService)['queryFields']();
  const invoiceFields = (): FieldMap => t.app.get(InvoicesService)['queryFields']();

  beforeAll(async () => {
    t = await createTestApp();
    mysql = t.dataSource.options.type !== 'better-sqlite3';
    timezone = t.app.get(WireFormat).timezone;
    const states = ['MN', 'CA', 'NY', 'TX', 'WA', 'OR', 'FL', 'GA', 'IL', 'OH'];
    const customers: string[] = [];
    const invoices: string[] = [];
    for (let n = 1; n <= CUSTOMERS; n++) {
      // One in ten owes past due (its earliest open invoice fell due in January).
      const due = n % 10 === 0 ? '2020-01-15' : '2099-01-15';
      customers.push(`('c${String(n).padStart(11, '0')}', 'ext-${n}', 'Co ${n}', '${states[n % states.length]}',
        'active-current', '${due}', '2026-01-01 00:00:00', '2026-01-01 00:00:00')`);
      for (let k = 0; k < 3; k++) {
        const status = k < 2 ? 'closed-paid' : n % 10 === 0 ? 'open-overdue' : 'open-unpaid';
        // Dated over 2019, a day apart from one invoice to the next.
        const date = new Date(Date.UTC(2019, 0, 1) + ((n * 3 + k) % 365) * 86_400_000).toISOString().slice(0, 10);
        invoices.push(`('i${String(n * 3 + k).padStart(11, '0')}', ${n}, '${date}', '${k < 2 ? '2020-01-01' : due}',
          0, 0, 0, 0, 0, 0, '${status}', '2026-01-01 00:00:00', '2026-01-01 00:00:00')`);
      }
    }
    await t.dataSource.query(`INSERT INTO customer (token, external_key, company, bill_state, customer_status_str,
      open_due_date, write_datetime, mod_datetime) VALUES ${customers.join(', ')}`);
    await t.dataSource.query(`INSERT INTO invoice (token, customer_id, date, due_date, subtotal, taxes, total, sum_base,
      sum_usage, sum_onetime, invoice_status_str, write_datetime, mod_datetime) VALUES ${invoices.join(', ')}`);
    // Fresh statistics, as a database that grew has.
    await t.dataSource.query(mysql ? 'ANALYZE TABLE customer, invoice' : 'ANALYZE');
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it.each([
    { where: 'bill_state:EQUALS:MN' },
    { where: 'customer_status_str:EQUALS:active-overdue' },
    { where: 'customer_status_str:EQUALS:inactive-manual' },
    { where: 'external_key:GTE:ext-12,external_key:LT:ext-13' },
    { where: 'company:EQUALS:Co 7' },
    { order: 'write_datetime:ASC' },
    { order: 'write_datetime:DESC' },
    { order: 'mod_datetime:ASC' },
  ])('customers %j', async (query) => {
    await expectBothIndexed('customer', customerFields(), query);
  });

  it.each([
    { where: 'customer_id:EQUALS:7' },
    { where: 'invoice_status_str:EQUALS:open-overdue' },
    { where: 'invoice_status_str:EQUALS:open-unpaid' },
    { where: 'date:GTE:2019-12-01,date:LT:2019-12-08' },
    { order: 'date:ASC' },
  ])('invoices %j', async (query) => {
    await expectBothIndexed('invoice', invoiceFields(), query);
  });

  // Soft-deleted rows are told apart in the index too: at 1,000,000 customers a count that
  // read each matching row took seconds (bench/RESULTS.md, "Growth").
  it.each([
    ['customer', 'customer_status_str:EQUALS:active-overdue'],
    ['invoice', 'invoice_status_str:EQUALS:open-overdue'],
  ] as const)('the %s _count of %s is read from the index alone', async (table, where) => {
    const access = await countAccess(table, table === 'customer' ? customerFields() : invoiceFields(), where);
    expect(access.length).toBeGreaterThan(0);
    expect(access).toEqual(access.map(() => 'covering'));
  });
});
