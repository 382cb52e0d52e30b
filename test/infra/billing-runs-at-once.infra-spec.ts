import { billingCli, summaryCount } from '../support/billing-cli';
import { createId } from '../support/catalog-fixtures';
import { cloneSubscriptions } from '../support/due-subscriptions';
import { scratchDatabase } from '../support/server-process';
import { createTestApp, TestApp } from '../support/test-app';

/** Due subscriptions: the 2,001 of issue 43's fault run. */
const COUNT = 2001;

/**
 * Two billing commands at once (issue 43, item 6), on the database of the run (DB_TYPE): no
 * subscription fails for a lock, and each is billed once. On SQLite the second waits for the
 * first to end (sqlite-run-lock.ts) and then finds nothing left to bill; on MariaDB they
 * share the work through row locks.
 */
describe('two billing runs at once', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let t: TestApp;

  beforeAll(async () => {
    db = await scratchDatabase();
    t = await createTestApp(db.env, { keepDatabase: true });
    // 2026-03-01 10:00 in Chicago: every subscription's first cycle starts now.
    t.clock.set(new Date('2026-03-01T16:00:00Z'));
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const customer = await createId(t, '/api/v3/customer', { company: 'Two runs' });
    const template = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await cloneSubscriptions(t.dataSource, template, COUNT - 1);
  }, 300_000);
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('fail no subscription for a lock, exit 0, and bill each cycle once between them', async () => {
    const args = ['--as-of', '2026-03-01 12:00:00'];
    const [a, b] = await Promise.all([billingCli(db.env, args), billingCli(db.env, args)]);
    // A failed command shows its output here.
    expect({ a: a.code === 0 ? 0 : a.out, b: b.code === 0 ? 0 : b.out }).toEqual({ a: 0, b: 0 });
    expect({ a: summaryCount(a.out, 'failures'), b: summaryCount(b.out, 'failures') }).toEqual({ a: 0, b: 0 });
    expect(summaryCount(a.out, 'invoices') + summaryCount(b.out, 'invoices')).toBe(COUNT);
    const rows: Array<{ n: number | string }> = await t.dataSource.query(
      "SELECT COUNT(*) AS n FROM invoice WHERE date = '2026-03-01' GROUP BY package_id",
    );
    expect({ subscriptions: rows.length, twice: rows.filter((r) => Number(r.n) > 1).length }).toEqual({
      subscriptions: COUNT,
      twice: 0,
    });
  }, 600_000);
});
