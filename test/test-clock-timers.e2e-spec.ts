import { SchedulerRegistry } from '@nestjs/schedule';
import { createId } from './support/catalog-fixtures';
import { scratchDatabase } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

/**
 * Issue 37 (defect 14), DESIGN §3 TEST_CLOCK: while the test clock is on, only moving it runs
 * due work. BILLING_CRON, the nightly job and the sweepers mount no timer and do not run at
 * start-up either, so a subscription due at the frozen start-up moment waits for the clock.
 */
describe('TEST_CLOCK=true with BILLING_CRON set', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let t: TestApp | undefined;
  let pkg: number;

  beforeAll(async () => {
    db = await scratchDatabase();
    // Without the test clock: a monthly 10.00 subscription whose first cycle starts 2026-03-01 10:00 Chicago.
    const setup = await createTestApp(db.env, { keepDatabase: true });
    setup.clock.set(new Date('2026-03-01T16:00:00Z'));
    const plan = await createId(setup, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const customer = await createId(setup, '/api/v3/customer', { company: 'Frozen' });
    pkg = await createId(setup, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await setup.close();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db.drop();
  });

  const invoicesOf = async (app: TestApp) =>
    (await app.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC`).expect(200)).body
      .response as Json[];

  it('mounts no timer and bills nothing at start; moving the clock bills the cycles due on the way', async () => {
    // Every second by BILLING_CRON, on an instance that runs workers: the timers would fire at once.
    t = await createTestApp(
      { ...db.env, TEST_CLOCK: 'true', APP_ROLE: 'all', BILLING_CRON: '* * * * * *' },
      {
        keepDatabase: true,
      },
    );
    const timers = t.app.get(SchedulerRegistry);
    expect(timers.getCronJobs().size).toBe(0);
    expect(timers.getIntervals()).toEqual([]);
    await t.drainJobs();
    // The clock froze at start-up, months after the cycle started: still nothing billed.
    expect(await invoicesOf(t)).toEqual([]);

    // Back on the clock's terms: to 2026-03-01 is not allowed (never back), so the test
    // moves it to where it froze plus a minute: every cycle started by then is billed.
    const frozen = t.clock.now();
    await moveClock(t, new Date(frozen.getTime() + 60_000));
    const invoices = await invoicesOf(t);
    // One invoice per started monthly cycle, 10.00 each: the first on 2026-03-01.
    expect(invoices.length).toBeGreaterThan(0);
    expect(invoices[0]).toMatchObject({ date: '2026-03-01', total: 10 });
    expect(invoices.every((i) => i.total === 10)).toBe(true);
  }, 300_000);
});
