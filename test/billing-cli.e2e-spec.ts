import { billingCli } from './support/billing-cli';
import { createId } from './support/catalog-fixtures';
import { scratchDatabase } from './support/server-process';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/**
 * The command-line billing run (issue 20, DESIGN §6 "Billing runs"): `--dry-run` shows what
 * would be invoiced and writes nothing; a real run bills every cycle started by `--as-of`,
 * once, and ends with a summary.
 */
describe('npm run billing', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let t: TestApp | undefined;
  let pkg: number;
  let setupPkg: number;

  /** The app on the scratch database (kept between opens). */
  const open = () => createTestApp(db.env, { keepDatabase: true });
  /** The closing report from its "subscriptions due" line on: the same words for a dry and a real run. */
  const summaryOf = (out: string) => out.slice(out.lastIndexOf('  subscriptions due:'));

  beforeAll(async () => {
    db = await scratchDatabase();
    t = await open();
    // 2026-03-01 10:00 in Chicago: the subscriptions' first cycles start now.
    t.clock.set(new Date('2026-03-01T16:00:00Z'));
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const onboarded = await createId(t, '/api/v3/item', {
      name: 'Onboarded plan',
      pricemodel: { pricemodel: 'fla', base: 40, setup: 25, paycycle: 'mon' },
    });
    const customer = await createId(t, '/api/v3/customer', { company: 'Command line' });
    pkg = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    setupPkg = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: onboarded }] });
    await t.close();
    t = undefined;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await db.drop();
  });

  it('a dry run predicts the run: every started cycle, its lines (setup as setup), the same summary', async () => {
    const dry = await billingCli(db.env, ['--as-of', '2026-04-15 12:00:00', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('(dry run: nothing written)');
    // Both cycles started by 2026-04-15 (March 1 and April 1), as the real run bills them.
    expect(dry.out).toContain(`package ${pkg} (customer`);
    expect(
      dry.out
        .split(`package ${pkg} `)
        .slice(1)
        .map((part) => part.split('\n')[0]),
    ).toEqual([
      expect.stringContaining('invoice dated 2026-03-01, 10.00 USD'),
      expect.stringContaining('invoice dated 2026-04-01, 10.00 USD'),
    ]);
    // The onboarded plan: 40.00 + the 25.00 setup once = 65.00 in March; 40.00 in April.
    expect(
      dry.out
        .split(`package ${setupPkg} `)
        .slice(1)
        .map((part) => part.split('\n')[0]),
    ).toEqual([
      expect.stringContaining('invoice dated 2026-03-01, 65.00 USD'),
      expect.stringContaining('invoice dated 2026-04-01, 40.00 USD'),
    ]);
    expect(dry.out).toContain('\n    recurring        40.00  \n    setup            25.00  Setup: Onboarded plan\n');
    // 4 invoices: 10.00 + 10.00 + 65.00 + 40.00 = 125.00.
    expect(summaryOf(dry.out)).toBe(
      ['  subscriptions due: 2', '  invoices: 4', '  total billed: 125.00 USD', '  failures: 0', ''].join('\n'),
    );

    const real = await billingCli(db.env, ['--as-of', '2026-04-15 12:00:00']);
    expect(real.code).toBe(0);
    expect(summaryOf(real.out)).toBe(summaryOf(dry.out));

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

/**
 * `--workers <n>`: the run in n processes at once, each starting on its own share of the due
 * subscriptions; one progress line and one summary. MySQL/MariaDB only (SQLite has one writer).
 */
describe('npm run billing -- --workers', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  const packages: number[] = [];

  beforeAll(async () => {
    db = await scratchDatabase();
    const t = await createTestApp(db.env, { keepDatabase: true });
    try {
      t.clock.set(new Date('2026-03-01T16:00:00Z'));
      const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
      for (let n = 0; n < 7; n++) {
        const customer = await createId(t, '/api/v3/customer', { company: `Worker customer ${n}` });
        packages.push(await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] }));
      }
    } finally {
      await t.close();
    }
  }, 120_000);
  afterAll(() => db.drop());

  it('bills every started cycle once across the workers and sums their summaries (SQLite: refused)', async () => {
    const args = ['--as-of', '2026-04-15 12:00:00', '--workers', '3'];
    if (process.env.DB_TYPE !== 'mysql') {
      const refused = await billingCli(db.env, args);
      expect(refused.code).toBe(2);
      expect(refused.out).toContain('--workers: SQLite has one writer');
      return;
    }
    // Workers share a run through what it writes: a dry run writes nothing.
    const dry = await billingCli(db.env, [...args, '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.out).toContain('--workers: a dry run writes nothing');

    const real = await billingCli(db.env, args);
    expect(real.code).toBe(0);
    expect(real.out).toContain('subscriptions due: 7');
    expect(real.out).toContain('invoices: 14');
    expect(real.out).toContain('total billed: 140.00 USD');
    expect(real.out).toContain('failures: 0');
    expect((await billingCli(db.env, args)).out).toContain('invoices: 0');

    const t = await createTestApp(db.env, { keepDatabase: true });
    try {
      for (const pkg of packages) {
        const invoices = (
          await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC`).expect(200)
        ).body.response as Json[];
        expect(invoices.map((i) => i.date)).toEqual(['2026-03-01', '2026-04-01']);
      }
    } finally {
      await t.close();
    }
  }, 600_000);

  it('refuses a worker count that is not a whole number from 1 to 32', async () => {
    for (const bad of ['33', '1.5']) {
      const out = await billingCli(db.env, ['--workers', bad]);
      expect(out.code).toBe(2);
      expect(out.out).toContain(`--workers: "${bad}" is not a whole number from 1 to 32`);
    }
  }, 120_000);
});
