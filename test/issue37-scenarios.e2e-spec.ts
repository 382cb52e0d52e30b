import { BillingRun } from 'src/billing-runs/runs/billing-run';
import { createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { subscriptionReads, wall } from './support/subscription-reads';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

/**
 * Issue 37 off the happy path: combinations the other scenario files leave out (future
 * cancels with usage by subscription, month ends, midnight and DST usage, quarterly
 * upgrades, one-time lines added mid-cycle, trials at cancel, refunds in parts, a memo
 * over three invoices, MRR of yearly and quantity lines). One app under the test clock;
 * each scenario takes a later year (the clock only moves forward). Every figure is worked
 * out by hand beside its assertion.
 */
describe('issue 37 scenarios', () => {
  let t: TestApp;
  let plan: number;
  let big: number;
  let addon: number;
  let onboarding: number;
  let calls: number;
  let seat: number;
  let annual: number;
  let small: number;
  let percentOff: number;

  const reads = () => subscriptionReads(t);
  const pkg = (id: number) => reads().pkg(id);
  const act = (id: number, action: string, body: Json = {}) => reads().act(id, action, body);
  const invoice = (id: number) => reads().invoice(id);
  const invoicesOf = (id: number) => reads().invoicesOf(id);
  const creditsOf = (customer: number) => reads().creditsOf(customer);
  const customerOf = (id: number) => reads().customerOf(id);
  const lineOf = (id: number, item: number) => reads().lineOf(id, item);
  const usageLines = (i: Json) =>
    (i.line_items as Json[]).filter((l) => l.is_usage).map((l) => [l.line_usage, l.line_total]);

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
    t.clock.set(new Date(wall('2026-01-05', '09:00:00')));
    const fla = (name: string, base: string, more: Json = {}) =>
      createId(t, '/api/v3/item', { name, tiersets: [{ pricemodel: 'fla', base, ...more }] });
    plan = await fla('Plan', '31.00');
    big = await fla('Big', '49.99');
    addon = await fla('Add-on', '20.00');
    onboarding = await fla('Onboarding', '250.00', { paycycle: 'one' });
    annual = await fla('Annual', '1200.00', { paycycle: 'yrl' });
    small = await fla('Small', '5.00');
    percentOff = await createId(t, '/api/v3/item', {
      name: 'Loyalty discount',
      item_type: 'discount',
      tiersets: [{ percent: 10 }],
    });
    seat = await createId(t, '/api/v3/item', {
      name: 'Seat',
      tiersets: [{ pricemodel: 'uni', tiers: [{ unit_from: 1, unit_to: null, amount: '11.00' }] }],
    });
    calls = await createId(t, '/api/v3/item', {
      name: 'API calls',
      external_key: 'calls-37',
      is_usage: true,
      tiersets: [{ pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }] }],
    });
  }, 120_000);
  afterAll(() => t.close());

  it('usage named by package_id or by customer and item keys is taken until a future cancel_date, and billed on the final invoice', async () => {
    await moveClock(t, wall('2026-03-01', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Leaving later', external_key: 'leaving-37' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: plan }, { item_id: calls }],
    });
    await moveClock(t, wall('2026-03-01', '09:30:00')); // Mar 1: 31.00, no usage on a first invoice
    await moveClock(t, wall('2026-03-21', '12:00:00'));
    await act(id, 'cancel', { cancel_date: '2026-03-26' }).expect(200);
    await t.post('/api/v3/usage', { package_id: id, usage_value: 6, from: '2026-03-24' }).expect(201);
    await t
      .post('/api/v3/usage', {
        customer: { external_key: 'leaving-37' },
        line_item: { item_external_key: 'calls-37' },
        usage_value: 4,
        from: '2026-03-25',
      })
      .expect(201);
    await moveClock(t, wall('2026-03-26', '01:00:00'));
    // Final invoice at Mar 26 00:00: (6 + 4) calls × 0.50 = 5.00; no credit (no cancel_prorate).
    const [first, final] = await invoicesOf(id);
    expect(first.total).toBe(31);
    expect(usageLines(final)).toEqual([[10, 5]]);
    expect(final).toMatchObject({ total: 5, balance: 5 });
    expect(await creditsOf(customer)).toEqual([]);
    // Ended: usage by subscription is refused now, naming the field.
    const late = await t.post('/api/v3/usage', { package_id: id, usage_value: 1, from: '2026-03-26' }).expect(400);
    expect(late.body.message).toContain('package_id');
    await moveClock(t, wall('2026-05-02'));
    expect(await invoicesOf(id)).toHaveLength(2);
  }, 240_000);

  it('bills month-end cycles (Jan 31 -> Feb 28 -> Mar 31 -> Apr 30) with usage by account-zone day around midnight and DST', async () => {
    await moveClock(t, wall('2027-01-31', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Month end' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: plan }, { item_id: calls }],
    });
    const metered = await lineOf(id, calls);
    const use = (usage_value: number, from: string) =>
      t.post('/api/v3/usage', { line_item_id: metered, usage_value, from }).expect(201);
    await moveClock(t, wall('2027-01-31', '09:30:00'));
    await use(5, '2027-01-31'); // the first day (date-only: the whole day, 00:00 before the 09:00 start): cycle 1
    await moveClock(t, wall('2027-02-28', '08:00:00'));
    await use(3, '2027-02-28T05:30:00Z'); // = Feb 27 23:30 CST: cycle 1
    await use(7, '2027-02-28T00:30:00-06:00'); // Feb 28 00:30 CST: cycle 2 (starts on Feb 28)
    await use(2, '2027-02-28'); // date-only Feb 28: cycle 2
    await moveClock(t, wall('2027-02-28', '10:00:00'));
    // Feb 28: 31.00 + (5 + 3) × 0.50 = 35.00.
    await moveClock(t, wall('2027-03-31', '08:45:00'));
    await use(4, '2027-03-14T01:30:00-06:00'); // Mar 14 01:30 CST, just before DST begins: cycle 2
    await use(1, '2027-03-30T23:59:59-05:00'); // Mar 30 23:59:59 CDT: cycle 2
    await use(6, '2027-03-31T08:30:00-05:00'); // Mar 31 08:30 CDT, before the 09:00 run: cycle 3
    await moveClock(t, wall('2027-04-30', '10:00:00'));
    // Mar 31: 31.00 + (7 + 2 + 4 + 1) × 0.50 = 31.00 + 7.00 = 38.00.
    // Apr 30: 31.00 + 6 × 0.50 = 34.00.
    const all = await invoicesOf(id);
    expect(all.map((i) => [i.date, i.total])).toEqual([
      ['2027-01-31', 31],
      ['2027-02-28', 35],
      ['2027-03-31', 38],
      ['2027-04-30', 34],
    ]);
    expect(all.slice(1).map(usageLines)).toEqual([[[8, 4]], [[14, 7]], [[6, 3]]]);
    expect((await pkg(id)).next_invoice_datetime).toBe(wall('2027-05-31', '09:00:00'));
    await act(id, 'cancel').expect(200);
  }, 240_000);

  it('a quarterly upgrade now bills the difference of the days left, then the new price each quarter', async () => {
    await moveClock(t, wall('2028-01-05', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Quarterly' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      paycycle: 'qtr',
      line_items: [{ item_id: plan }],
    });
    await moveClock(t, wall('2028-01-05', '09:30:00')); // Jan 5 .. Apr 5: 31.00
    const line = await lineOf(id, plan);
    await moveClock(t, wall('2028-02-14', '12:00:00'));
    await act(id, 'upgrade', {
      subscribe_prorate_cycle: 'now',
      line_items: [{ line_item_id: line, item_id: big, subscribe_prorate: true, cancel_prorate: true }],
    }).expect(200);
    // Jan 5 .. Apr 5 2028 (leap year): 27 + 29 + 31 + 4 = 91 days; Feb 14 .. Apr 5: 16 + 31 + 4 = 51 left.
    // 51/91 = 0.560439560; charge 49.99 × 0.560439560 = 28.01637... -> 28.02;
    // credit 31.00 × 0.560439560 = 17.37362... -> 17.37; net 28.02 − 17.37 = 10.65.
    const [, now] = await invoicesOf(id);
    expect(now.total).toBe(10.65);
    expect(now.line_items.map((l: Json) => l.line_total).sort()).toEqual([-17.37, 28.02]);
    await moveClock(t, wall('2028-07-05', '10:00:00'));
    // Apr 5 and Jul 5: 49.99 each.
    expect((await invoicesOf(id)).map((i) => [i.date, i.total])).toEqual([
      ['2028-01-05', 31],
      ['2028-02-14', 10.65],
      ['2028-04-05', 49.99],
      ['2028-07-05', 49.99],
    ]);
    await act(id, 'cancel').expect(200);
  }, 240_000);

  it('a one-time line added mid-cycle bills 250.00 once, on the next invoice, with or without subscribe_prorate', async () => {
    await moveClock(t, wall('2029-03-01', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Onboarded later' });
    const plain = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    const prorated = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await moveClock(t, wall('2029-03-01', '09:30:00')); // Mar 1: 31.00 each
    await moveClock(t, wall('2029-03-21', '12:00:00'));
    await act(plain, 'upgrade', { line_items: [{ item_id: onboarding }] }).expect(200);
    await act(prorated, 'upgrade', { line_items: [{ item_id: onboarding, subscribe_prorate: true }] }).expect(200);
    await moveClock(t, wall('2029-05-01', '10:00:00'));
    // A one-time amount is not a cycle's price: never prorated, billed once.
    // Apr 1: 31.00 + 250.00 = 281.00; May 1: 31.00.
    for (const id of [plain, prorated]) {
      expect((await invoicesOf(id)).map((i) => [i.date, i.total])).toEqual([
        ['2029-03-01', 31],
        ['2029-04-01', 281],
        ['2029-05-01', 31],
      ]);
    }
    // MRR: 31.00 + 31.00; the one-time line counts zero.
    expect(await customerOf(customer)).toMatchObject({ mrr: 62, arr: 744 });
    await act(plain, 'cancel').expect(200);
    await act(prorated, 'cancel').expect(200);
  }, 240_000);

  it('cancel now with cancel_prorate credits the billed plan only, not a line still in trial', async () => {
    await moveClock(t, wall('2030-03-01', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Trial at cancel' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: plan }, { item_id: addon, trial_days: 60 }],
    });
    await moveClock(t, wall('2030-03-01', '09:30:00'));
    // Mar 1: 31.00; the add-on is free in its trial.
    expect((await invoicesOf(id)).map((i) => i.total)).toEqual([31]);
    await moveClock(t, wall('2030-03-21', '12:00:00'));
    await act(id, 'cancel', { cancel_prorate: true }).expect(200);
    // Mar 21 .. Apr 1: 11 of 31 days; 31.00 × 11/31 = 11.00; the add-on was billed 0.00: credit 0.
    const credits = await creditsOf(customer);
    expect(credits.map((c) => c.amount)).toEqual([11]);
    expect(credits[0]).toMatchObject({ applied: 0, unapplied: 11 });
    // No metered line: no final invoice.
    expect(await invoicesOf(id)).toHaveLength(1);
    // Due 31.00 (the open 11.00 credit waits for pay {use_customer_balance}).
    expect((await customerOf(customer)).balance).toBe(31);
  }, 240_000);

  it('a 70.00 credit memo is consumed across three subscription invoices, oldest invoice first', async () => {
    await moveClock(t, wall('2031-01-07', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Memo over three' });
    const memo = await createId(t, '/api/v3/transaction', {
      customer_id: customer,
      transaction_type: 'cre',
      gateway_method: 'credit',
      amount: '70.00',
    });
    const id = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await moveClock(t, wall('2031-03-07', '10:00:00'));
    // Jan 7: 31.00 from the memo (39.00 left); Feb 7: 31.00 (8.00 left); Mar 7: 8.00, 23.00 due.
    expect((await invoicesOf(id)).map((i) => [i.total, i.credits, i.balance])).toEqual([
      [31, 31, 0],
      [31, 31, 0],
      [31, 8, 23],
    ]);
    const read = (await t.get(`/api/v3/transaction/${memo}`).expect(200)).body.response as Json;
    expect(read).toMatchObject({ applied: 70, unapplied: 0 });
    // 31 + 31 + 8 = 70 over three invoices.
    expect((read.applied_to as Json[]).map((a) => a.applied)).toEqual([31, 31, 8]);
    expect((await customerOf(customer)).balance).toBe(23);
    await act(id, 'cancel').expect(200);
  }, 240_000);

  it('a partial refund, then a second, re-open what they give back; never more than was paid', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Refunded twice' });
    const id = await make.newInvoiceOf(t, customer, [{ item_id: plan }]);
    const pay = await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: customer,
        applied_to: [id],
        paymethods: [make.newCard({ expdate_year: 2040 })],
      })
      .expect(200);
    const payment = pay.body.response.id as number;
    expect(await invoice(id)).toMatchObject({ total: 31, payments: 31, applied: 31, balance: 0 });
    await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: '10.00' }).expect(200);
    // payments 31, refunds 10: applied 31 − 10 = 21, balance 31 − 21 = 10.
    expect(await invoice(id)).toMatchObject({ payments: 31, refunds: 10, applied: 21, balance: 10 });
    await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: '5.50' }).expect(200);
    // refunds 10 + 5.50 = 15.50: applied 31 − 15.50 = 15.50, balance 15.50.
    expect(await invoice(id)).toMatchObject({ payments: 31, refunds: 15.5, applied: 15.5, balance: 15.5 });
    expect((await invoice(id)).invoice_status_str).not.toBe('closed-paid');
    // Refundable: 31 − 15.50 = 15.50; 15.51 is refused.
    await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: '15.51' }).expect(400);
    expect(await customerOf(customer)).toMatchObject({ balance: 15.5, paid: 15.5 });
  }, 240_000);

  it('counts a yearly plan at a twelfth and a quantity line at its quantity in MRR', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Yearly and seats' });
    await make.newSubscription(t, customer, [{ item_id: annual }], { paycycle: 'yrl' });
    await make.newSubscription(t, customer, [{ item_id: seat, line_quantity: 3 }, { item_id: calls }]);
    // 1200.00 / 12 = 100.00; 3 × 11.00 = 33.00; metered 0: MRR 133.00, ARR 12 × 133.00 = 1596.00.
    expect(await customerOf(customer)).toMatchObject({ mrr: 133, arr: 1596 });
  }, 240_000);

  it('a percent discount takes its part of the cycle with a downgrade credit pending', async () => {
    await moveClock(t, wall('2032-01-05', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Discounted downgrade' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: big }, { item_id: percentOff }],
    });
    await moveClock(t, wall('2032-01-05', '09:30:00'));
    // Jan 5: 49.99 − 10 % × 49.99 (4.999 -> 5.00) = 44.99.
    expect((await invoicesOf(id))[0]).toMatchObject({ subtotal: 44.99, total: 44.99 });
    const line = await lineOf(id, big);
    await moveClock(t, wall('2032-01-20', '12:00:00'));
    await act(id, 'upgrade', {
      line_items: [{ line_item_id: line, item_id: plan, subscribe_prorate: true, cancel_prorate: true }],
    }).expect(200);
    // MRR: 31.00 − 10 % = 27.90.
    expect((await customerOf(customer)).mrr).toBe(27.9);
    await moveClock(t, wall('2032-02-05', '10:00:00'));
    // Jan 5 .. Feb 5: 31 days; Jan 20 .. Feb 5: 16 left; 16/31 = 0.516129032.
    // Charge 31.00 × 0.516129032 = 15.999999992 -> 16.00; credit 49.99 × 0.516129032 = 25.80129031 -> 25.80.
    // Non-discount lines: 31.00 + 16.00 − 25.80 = 21.20; discount 10 % = −2.12; total 19.08.
    const feb = (await invoicesOf(id))[1];
    expect(feb.line_items.map((l: Json) => l.line_total).sort((a: number, b: number) => a - b)).toEqual([
      -25.8, -2.12, 16, 31,
    ]);
    expect(feb).toMatchObject({ subtotal: 19.08, total: 19.08, balance: 19.08 });
    expect(await creditsOf(customer)).toEqual([]);
    await act(id, 'cancel').expect(200);
  }, 240_000);

  it('a dry run with a downgrade credit pending predicts the invoice and total the run then issues', async () => {
    await moveClock(t, wall('2033-01-05', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Predicted credit' });
    const id = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: big }] });
    await moveClock(t, wall('2033-01-05', '09:30:00')); // Jan 5: 49.99
    const line = await lineOf(id, big);
    await moveClock(t, wall('2033-01-05', '12:00:00')); // the first day of Jan 5 .. Feb 5
    await act(id, 'upgrade', {
      line_items: [{ line_item_id: line, item_id: small, subscribe_prorate: true, cancel_prorate: true }],
    }).expect(200);
    const asOf = new Date(wall('2033-02-05', '10:00:00'));
    const run = t.app.get(BillingRun);
    const predicted: Json[] = [];
    const dry = await run.run(asOf, { dryRun: true, listener: { invoiced: (i) => predicted.push(i) } });
    // Fraction 31/31 = 1: 5.00 (in advance) + 5.00 − 49.99 = −39.99: the invoice bills 10.00,
    // the 49.99 goes to a memo.
    const mine = (list: Json[]) =>
      list.filter((i) => i.packageId === id).map((i) => [i.packageId, i.date, Number(i.total)]);
    expect(mine(predicted)).toEqual([[id, '2033-02-05', 10]]);
    expect(await invoicesOf(id)).toHaveLength(1);
    expect(await creditsOf(customer)).toEqual([]);
    const issued: Json[] = [];
    const real = await run.run(asOf, { dryRun: false, listener: { invoiced: (i) => issued.push(i) } });
    expect(mine(issued)).toEqual(mine(predicted));
    const money = (s: Json) => [
      s.invoices,
      Object.entries(s.billed as Json).map(([c, v]) => [c, String(v)]),
      s.failures,
    ];
    expect(money(real)).toEqual(money(dry));
    expect((await invoicesOf(id))[1]).toMatchObject({ total: 10, credits: 10, balance: 0 });
    // 49.99 − 10.00 = 39.99 left.
    expect((await creditsOf(customer))[0]).toMatchObject({ amount: 49.99, applied: 10, unapplied: 39.99 });
    await moveClock(t, asOf);
    expect(await invoicesOf(id)).toHaveLength(2);
    await act(id, 'cancel').expect(200);
  }, 240_000);

  it('a yearly plan upgraded mid-year with next timing bills the prorated difference on the next yearly invoice', async () => {
    await moveClock(t, wall('2034-01-05', '09:00:00'));
    const pro = await createId(t, '/api/v3/item', {
      name: 'Annual Pro',
      tiersets: [{ pricemodel: 'fla', paycycle: 'yrl', base: '1800.00' }],
    });
    const customer = await createId(t, '/api/v3/customer', { company: 'Yearly upgrade' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      paycycle: 'yrl',
      line_items: [{ item_id: annual }],
    });
    await moveClock(t, wall('2034-01-05', '09:30:00')); // Jan 5 2034 .. Jan 5 2035: 1200.00
    const line = await lineOf(id, annual);
    await moveClock(t, wall('2034-07-05', '12:00:00'));
    await act(id, 'upgrade', {
      line_items: [{ line_item_id: line, item_id: pro, subscribe_prorate: true, cancel_prorate: true }],
    }).expect(200);
    // MRR 1800.00 / 12 = 150.00, ARR 1800.00.
    expect(await customerOf(customer)).toMatchObject({ mrr: 150, arr: 1800 });
    await moveClock(t, wall('2035-01-05', '10:00:00'));
    // 365 days; Jul 5 .. Jan 5: 27 + 31 + 30 + 31 + 30 + 31 + 4 = 184 left; 184/365 = 0.504109589.
    // Charge 1800.00 × 0.504109589 = 907.3972602 -> 907.40; credit 1200.00 × 0.504109589 = 604.9315068 -> 604.93.
    // Jan 5 2035: 1800.00 + 907.40 − 604.93 = 2102.47.
    expect((await invoicesOf(id)).map((i) => [i.date, i.total])).toEqual([
      ['2034-01-05', 1200],
      ['2035-01-05', 2102.47],
    ]);
    await act(id, 'cancel').expect(200);
  }, 480_000);
});
