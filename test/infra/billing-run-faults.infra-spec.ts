import { billingCli, startBillingCli, summaryCount } from '../support/billing-cli';
import { createId } from '../support/catalog-fixtures';
import { cloneSubscriptions } from '../support/due-subscriptions';
import { scratchDatabase } from '../support/server-process';
import { createTestApp, TestApp } from '../support/test-app';

/** Due subscriptions in the run: issue 20 checks faults at 10,000 (a kill lands midway, two workers overlap). */
const COUNT = 10_000;

/**
 * Billing runs under faults, always on MariaDB (the multi-worker database; SQLite has one
 * writer): two workers running the same run at once, and a run SIGKILLed midway then
 * restarted, each bill every due subscription exactly once for the cycle, none skipped.
 */
describe('billing runs under faults (MariaDB)', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let t: TestApp;
  let ids: number[];

  /** Invoices per (subscription, invoice date): how many cycles were billed, and none twice. */
  const billed = async (date: string) => {
    const rows: Array<{ n: number | string }> = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM invoice WHERE date = ? GROUP BY package_id',
      [date],
    );
    return { subscriptions: rows.length, twice: rows.filter((r) => Number(r.n) > 1).length };
  };
  const cyclesBilled = async (cycleStart: Date): Promise<number> =>
    Number(
      (await t.dataSource.query('SELECT COUNT(*) AS n FROM billing_cycle WHERE cycle_start = ?', [cycleStart]))[0].n,
    );

  beforeAll(async () => {
    db = await scratchDatabase('mysql');
    t = await createTestApp(db.env, { keepDatabase: true });
    // 2026-03-01 10:00 in Chicago: every subscription's first cycle starts now.
    t.clock.set(new Date('2026-03-01T16:00:00Z'));
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const customer = await createId(t, '/api/v3/customer', { company: 'Many subscriptions' });
    const template = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    ids = [template, ...(await cloneSubscriptions(t.dataSource, template, COUNT - 1))];
  }, 300_000);
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('two workers running the same run at once bill each subscription once', async () => {
    const args = ['--as-of', '2026-03-01 12:00:00'];
    const [a, b] = await Promise.all([billingCli(db.env, args), billingCli(db.env, args)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(summaryCount(a.out, 'invoices') + summaryCount(b.out, 'invoices')).toBe(COUNT);
    expect(await billed('2026-03-01')).toEqual({ subscriptions: COUNT, twice: 0 });
    expect(await cyclesBilled(new Date('2026-03-01T16:00:00Z'))).toBe(COUNT);
  }, 900_000);

  it('a run killed midway, then run again, bills the rest and nothing twice', async () => {
    const aprilCycle = new Date('2026-04-01T15:00:00Z');
    const args = ['--as-of', '2026-04-01 12:00:00'];
    const killed = startBillingCli(db.env, args);
    // SIGKILL once a fifth of the cycle is billed (polled from the test's own connection).
    for (;;) {
      const done = await cyclesBilled(aprilCycle);
      if (done >= COUNT / 5) break;
      if (killed.child.exitCode !== null) throw new Error('the run ended before it could be killed');
      await new Promise((r) => setTimeout(r, 100));
    }
    killed.child.kill('SIGKILL');
    await killed.exited;
    const partial = await billed('2026-04-01');
    expect(partial.twice).toBe(0);
    expect(partial.subscriptions).toBeLessThan(COUNT);

    const rerun = await billingCli(db.env, args);
    expect(rerun.code).toBe(0);
    expect(summaryCount(rerun.out, 'invoices')).toBe(COUNT - partial.subscriptions);
    expect(await billed('2026-04-01')).toEqual({ subscriptions: COUNT, twice: 0 });
    expect(await cyclesBilled(aprilCycle)).toBe(COUNT);
    const next: Array<{ n: number | string }> = await t.dataSource.query(
      'SELECT COUNT(*) AS n FROM package WHERE next_invoice_datetime = ?',
      [new Date('2026-05-01T15:00:00Z')],
    );
    expect(Number(next[0].n)).toBe(ids.length);
  }, 900_000);
});
