import { billingCli } from './support/billing-cli';
import { createId } from './support/catalog-fixtures';
import { scratchDatabase } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The command-line billing run (issue 20, DESIGN §6 "Billing runs"): `--dry-run` shows what
 * would be invoiced and writes nothing; a real run bills every cycle started by `--as-of`,
 * once, and ends with a summary.
 */
describe('npm run billing', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let t: TestApp | undefined;
  let pkg: number;

  /** The app on the scratch database (kept between opens). */
  const open = () => createTestApp(db.env, { keepDatabase: true });

  beforeAll(async () => {
    db = await scratchDatabase();
    t = await open();
    // 2026-03-01 10:00 in Chicago: the subscription's first cycle starts now.
    t.clock.set(new Date('2026-03-01T16:00:00Z'));
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const customer = await createId(t, '/api/v3/customer', { company: 'Command line' });
    pkg = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await t.close();
    t = undefined;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db.drop();
  });

  it('prints what a dry run would invoice, writes nothing, then bills each started cycle once', async () => {
    const dry = await billingCli(db.env, ['--as-of', '2026-04-15 12:00:00', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`package ${pkg} `);
    expect(dry.out).toContain('invoice dated 2026-03-01, 10.00 USD');
    expect(dry.out).toContain('(dry run: nothing written)');
    expect(dry.out).toContain('invoices that would be issued: 1');

    const real = await billingCli(db.env, ['--as-of', '2026-04-15 12:00:00']);
    expect(real.code).toBe(0);
    expect(real.out).toContain('subscriptions due: 1');
    expect(real.out).toContain('invoices: 2');
    expect(real.out).toContain('total billed: 20.00 USD');
    expect(real.out).toContain('failures: 0');

    const again = await billingCli(db.env, ['--as-of', '2026-04-15 12:00:00']);
    expect(again.out).toContain('invoices: 0');

    const bad = await billingCli(db.env, ['--as-of', 'someday']);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('--as-of');

    t = await open();
    const invoices = (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC`).expect(200))
      .body.response as Json[];
    expect(invoices.map((i) => [i.date, i.total])).toEqual([
      ['2026-03-01', 10],
      ['2026-04-01', 10],
    ]);
  }, 600_000);
});
