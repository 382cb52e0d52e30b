import { DateTime } from 'luxon';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

const ZONE = 'America/Chicago';

/** Invoices of a subscription, oldest first, each read whole (with its lines). */
async function invoicesOf(t: TestApp, pkg: number): Promise<Json[]> {
  const listed = (
    await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC&limit=500`).expect(200)
  ).body.response as Json[];
  const invoices: Json[] = [];
  for (const i of listed) invoices.push((await t.get(`/api/v3/invoice/${i.invoice_id}`).expect(200)).body.response);
  return invoices;
}

/** An account-zone wall time as the API renders it (ISO with offset). */
function wall(date: string, time = '10:00:00'): string {
  return DateTime.fromISO(`${date}T${time}`, { zone: ZONE }).toISO({ suppressMilliseconds: true })!;
}

/**
 * Billing runs (DESIGN §6 "Billing runs", issue 20): a monthly subscription created on
 * Jan 31 moved through 14 months with the test clock, every invoice compared with a table
 * worked out by hand below.
 */
describe('billing runs through the test clock', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
    // 2026-01-31 10:00 in Chicago (UTC-6).
    t.clock.set(new Date('2026-01-31T16:00:00Z'));
  }, 120_000);
  afterAll(() => t.close());

  it('bills 15 cycles from Jan 31 over 14 months: setup once, trial free, usage in arrears, expiry after 2', async () => {
    const plan = await createId(t, '/api/v3/item', {
      name: 'Plan',
      tiersets: [{ pricemodel: 'fla', paycycle: 'mon', base: '30', setup: '50' }],
    });
    const support = await createId(t, '/api/v3/item', { name: 'Support', pricemodel: { pricemodel: 'fla', base: 20 } });
    const calls = await createId(t, '/api/v3/item', {
      name: 'API calls',
      is_usage: true,
      tiersets: [
        {
          pricemodel: 'tie',
          paycycle: 'mon',
          tiers: [
            { unit_from: 1, unit_to: 100, amount: '0.10' },
            { unit_from: 101, unit_to: null, amount: '0.05' },
          ],
        },
      ],
    });
    const onboarding = await createId(t, '/api/v3/item', {
      name: 'Onboarding',
      pricemodel: { pricemodel: 'fla', base: 15 },
    });
    const customer = await createId(t, '/api/v3/customer', { company: 'Fourteen Months' });
    const pkg = await createId(t, '/api/v3/package', {
      customer_id: customer,
      paycycle: 'mon',
      line_items: [
        { item_id: plan },
        { item_id: support, trial_days: 14 },
        { item_id: calls },
        { item_id: onboarding, expire_recurs: 2 },
      ],
    });
    const lines = (await t.get(`/api/v3/package/${pkg}`).expect(200)).body.response.line_items as Json[];
    const callsLine = lines.find((l) => l.item_id === calls)!.line_item_id as number;

    // Cycle k starts on these account dates at 10:00 (Jan 31 clamps to month ends, then returns).
    const starts = [
      '2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30', '2026-07-31',
      '2026-08-31', '2026-09-30', '2026-10-31', '2026-11-30', '2026-12-31', '2027-01-31', '2027-02-28',
      '2027-03-31',
    ]; // prettier-ignore
    // Usage pushed during cycle k (two records on its 2nd and 11th day), billed on invoice k+1.
    const usage = [50, 70, 90, 110, 130, 150, 40, 100, 101, 0, 200, 5, 80, 120];
    for (const [k, total] of usage.entries()) {
      if (total === 0) continue;
      const day = (n: number) => DateTime.fromISO(`${starts[k]}T12:00:00`, { zone: ZONE }).plus({ days: n });
      const first = Math.floor(total / 2);
      for (const [value, on] of [
        [first, day(1)],
        [total - first, day(10)],
      ] as const) {
        const at = on.toFormat('yyyy-MM-dd HH:mm:ss');
        await t.post('/api/v3/usage', { line_item_id: callsLine, usage_value: value, from: at, to: at }).expect(201);
      }
    }
    // Usage of the cycle still running at the end is billed on the next invoice, not these.
    await t.post('/api/v3/usage', { line_item_id: callsLine, usage_value: 999, from: '2027-04-05' }).expect(201);

    await moveClock(t, wall('2027-03-31', '12:00:00'));

    // Graduated usage: 0.10 a call up to 100 calls, 0.05 above (tiers on the cycle's total).
    const usageAmount = ['5.00', '7.00', '9.00', '10.50', '11.50', '12.50', '4.00', '10.00', '10.05', '0.00',
      '15.00', '0.50', '8.00', '11.00']; // prettier-ignore
    // By hand: invoice 0 = Plan 30 + setup 50 + Support in trial 0 + Onboarding 15 = 95.00;
    // invoice 1 = 30 + 20 + 15 + usage 5.00 = 70.00; from invoice 2 on, Onboarding has expired
    // (expire_recurs 2): 30 + 20 + that cycle's usage.
    const totals = ['95.00', '70.00', '57.00', '59.00', '60.50', '61.50', '62.50', '54.00', '60.00', '60.05',
      '50.00', '65.00', '50.50', '58.00', '61.00']; // prettier-ignore

    const invoices = await invoicesOf(t, pkg);
    expect(invoices).toHaveLength(15);
    invoices.forEach((invoice, k) => {
      const start = starts[k];
      const end = starts[k + 1] ?? '2027-04-30';
      const label = `invoice ${k} (${start})`;
      expect({ label, date: invoice.date, total: invoice.total.toFixed(2) }).toEqual({
        label,
        date: start,
        total: totals[k],
      });
      expect(invoice).toMatchObject({ package_id: pkg, customer_id: customer, cycle_this_date: start });
      expect(invoice.cycle_post_from_date).toBe(start);
      expect(invoice.cycle_post_to_date).toBe(DateTime.fromISO(end).minus({ days: 1 }).toISODate());
      const billed = (invoice.line_items as Json[]).map((l) => ({
        item_id: l.item_id,
        total: l.line_total.toFixed(2),
        setup: l.is_setup,
        free: l.is_free,
        usage: l.is_usage,
      }));
      const expected = [
        { item_id: plan, total: '30.00', setup: false, free: false, usage: false },
        ...(k === 0 ? [{ item_id: plan, total: '50.00', setup: true, free: false, usage: false }] : []),
        { item_id: support, total: k === 0 ? '0.00' : '20.00', setup: false, free: k === 0, usage: false },
        ...(k < 2 ? [{ item_id: onboarding, total: '15.00', setup: false, free: false, usage: false }] : []),
        ...(k > 0 ? [{ item_id: calls, total: usageAmount[k - 1], setup: false, free: false, usage: true }] : []),
      ];
      expect({ label, lines: billed }).toEqual({ label, lines: expected });
      if (k > 0) {
        const usageLine = (invoice.line_items as Json[]).find((l) => l.is_usage)!;
        expect({ label, usage: usageLine.line_usage, from: usageLine.usage_from, to: usageLine.usage_to }).toEqual({
          label,
          usage: usage[k - 1],
          // Usage periods are account-zone days: from cycle k−1's start date up to cycle k's.
          from: wall(starts[k - 1], '00:00:00'),
          to: wall(start, '00:00:00'),
        });
        expect(invoice.cycle_pre_from_date).toBe(starts[k - 1]);
      } else {
        expect(invoice.cycle_pre_from_date).toBeNull();
      }
    });

    const after = (await t.get(`/api/v3/package/${pkg}`).expect(200)).body.response;
    expect(after.next_invoice_datetime).toBe(wall('2027-04-30'));
    const onboardingLine = (after.line_items as Json[]).find((l) => l.item_id === onboarding)!;
    expect(onboardingLine.expire_datetime).toBe(wall('2026-02-28'));
  }, 600_000);
});
