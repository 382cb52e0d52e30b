import { InvoiceCollector } from 'src/billing-runs/collection/invoice-collector';
import { NightlyJob } from 'src/billing-runs/nightly/nightly-job';
import { PendingProration } from 'src/subscriptions/entities/pending-proration.entity';
import { createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

/** An instant of the account zone (America/Chicago, UTC-6 in January and February). */
const cst = (local: string): string => `${local}-06:00`;

/**
 * Subscription invoice lines and figures (issue 37 points 4, 6-11; DESIGN §6 "Items",
 * "Invoices", "Cycle and proration rules"): one story under the test clock, from the first
 * cycles on 2026-01-05 09:00 to the second on 2026-02-05 09:00. Every figure is worked out
 * by hand beside its assertion.
 */
describe('subscription lines and figures', () => {
  let t: TestApp;
  const item: Record<string, number> = {};
  const sub: Record<string, number> = {};
  const customer: Record<string, number> = {};
  const line: Record<string, number> = {};

  const invoicesOf = async (pkg: number): Promise<Json[]> => {
    const list = (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}&order=invoice_id:ASC`).expect(200)).body
      .response as Json[];
    return Promise.all(
      list.map(async (i) => (await t.get(`/api/v3/invoice/${i.invoice_id}`).expect(200)).body.response as Json),
    );
  };
  const invoice = async (id: number): Promise<Json> => (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response;
  const customerOf = async (id: number): Promise<Json> =>
    (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;
  const lineOf = async (pkg: number, itemId: number): Promise<number> => {
    const lines = (await t.get(`/api/v3/package/${pkg}`).expect(200)).body.response.line_items as Json[];
    return lines.find((l) => l.item_id === itemId)!.line_item_id as number;
  };
  /** What a line shows: quantity, rate, total. */
  const shown = (l: Json) => [l.item_id, l.line_quantity, l.line_rate, l.line_total];
  const newSubscription = async (name: string, lines: Json[], fields: Json = {}): Promise<number> => {
    customer[name] = await make.newCustomer(t, { company: name });
    sub[name] = await make.newSubscription(t, customer[name], lines, fields);
    return sub[name];
  };

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
    t.clock.set(new Date(cst('2026-01-05T09:00:00')));
    const fla = (name: string, base: number, more: Json = {}) =>
      createId(t, '/api/v3/item', { name, tiersets: [{ pricemodel: 'fla', base, ...more }] });
    item.plan = await fla('Plan', 10);
    item.seat = await fla('Seat', 49);
    item.setupPlan = await fla('Plan with setup', 49, { setup: 100 });
    item.addon = await fla('Add-on', 20);
    item.onboarding = await fla('Onboarding', 250, { paycycle: 'one' });
    item.percentOff = await createId(t, '/api/v3/item', {
      name: 'Loyalty discount',
      item_type: 'discount',
      tiersets: [{ percent: 10 }],
    });
    item.fixedOff = await createId(t, '/api/v3/item', {
      name: 'Fixed discount',
      item_type: 'discount',
      tiersets: [{ base: 5 }],
    });
    item.unit = await createId(t, '/api/v3/item', {
      name: 'Unit priced',
      tiersets: [{ pricemodel: 'uni', tiers: [{ unit_from: 1, unit_to: null, amount: 11 }] }],
    });
    item.calls = await createId(t, '/api/v3/item', {
      name: 'API calls',
      is_usage: true,
      tiersets: [{ pricemodel: 'uni', tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }] }],
    });

    await newSubscription('usage', [{ item_id: item.plan }, { item_id: item.calls }]);
    line.calls = await lineOf(sub.usage, item.calls);
    await newSubscription('percent', [{ item_id: item.seat, line_quantity: 3 }, { item_id: item.percentOff }]);
    await newSubscription('fixed', [{ item_id: item.seat }, { item_id: item.fixedOff }]);
    await newSubscription('once', [{ item_id: item.plan }, { item_id: item.onboarding }]);
    await newSubscription('quantity', [{ item_id: item.unit, line_quantity: 3 }]);
    await newSubscription('mrr', [
      { item_id: item.setupPlan },
      { item_id: item.calls },
      { item_id: item.onboarding },
      { item_id: item.addon, trial_days: 30 },
    ]);
    await newSubscription('usageOnly', [{ item_id: item.calls }]);
  }, 180_000);
  afterAll(() => t.close());

  it('counts recurring lines only in MRR: not metered, one-time, setup or trial lines', async () => {
    // Plan 49.00; metered 0, one-time 250.00 → 0, setup 100.00 → 0, add-on in trial 0.
    // MRR 49.00, ARR 12 × 49.00 = 588.00.
    expect(await customerOf(customer.mrr)).toMatchObject({ mrr: 49, arr: 588 });
    // Plan 10.00 and a metered line (0): 10.00, ARR 120.00.
    expect(await customerOf(customer.usage)).toMatchObject({ mrr: 10, arr: 120 });
    // A percent discount counts as on the invoice: 147.00 − 14.70 = 132.30; ARR 1587.60.
    expect(await customerOf(customer.percent)).toMatchObject({ mrr: 132.3, arr: 1587.6 });
    expect(await customerOf(customer.usageOnly)).toMatchObject({ mrr: 0, arr: 0 });
  });

  it('bills usage dated the first day (a date-only from is that whole day)', async () => {
    // Midnight of the first day, before the first cycle's 09:00 start: still its usage.
    await t.post('/api/v3/usage', { line_item_id: line.calls, usage_value: 12, from: '2026-01-05' }).expect(201);
    await moveClock(t, cst('2026-01-05T09:01:00'));
    // The first invoice has no usage line: the plan alone, 10.00.
    expect((await invoicesOf(sub.usage)).map((i) => i.total)).toEqual([10]);

    // Feb 5 08:00 is before the second cycle's 09:00 start but on its start date: cycle 1's usage.
    await moveClock(t, cst('2026-02-05T08:00:00'));
    await t
      .post('/api/v3/usage', { line_item_id: line.calls, usage_value: 5, from: '2026-02-05 08:00:00' })
      .expect(201);
    await moveClock(t, cst('2026-02-05T09:01:00'));
    const [, february] = await invoicesOf(sub.usage);
    const usage = (february.line_items as Json[]).find((l) => l.is_usage)!;
    // Cycle 0's usage covers Jan 5 .. Feb 4 (dates): the 12 calls, not the 5 of Feb 5.
    // 12 × 0.50 = 6.00; 10.00 + 6.00 = 16.00.
    expect(usage).toMatchObject({
      line_usage: 12,
      line_quantity: 12,
      line_rate: 0.5,
      line_total: 6,
      usage_from: '2026-01-05T00:00:00-06:00',
      usage_to: '2026-02-05T00:00:00-06:00',
    });
    expect(february.total).toBe(16);
  }, 180_000);

  it('bills a percent discount on a subscription exactly as on a one-off invoice', async () => {
    const [first, second] = await invoicesOf(sub.percent);
    // 3 × 49.00 = 147.00; 10 % of the non-discount lines: −14.70; 147.00 − 14.70 = 132.30.
    expect((first.line_items as Json[]).map(shown)).toEqual([
      [item.seat, 3, 49, 147],
      [item.percentOff, 1, 10, -14.7],
    ]);
    expect([first.subtotal, first.total, second.total]).toEqual([132.3, 132.3, 132.3]);
    const oneOff = await make.newInvoiceOf(t, customer.percent, [
      { item_id: item.seat, line_quantity: 3 },
      { item_id: item.percentOff },
    ]);
    expect(((await invoice(oneOff)).line_items as Json[]).map(shown)).toEqual((first.line_items as Json[]).map(shown));
  });

  it('bills a fixed discount on every cycle', async () => {
    // 49.00 − 5.00 = 44.00, on Jan 5 and on Feb 5.
    const invoices = await invoicesOf(sub.fixed);
    expect(invoices.map((i) => i.total)).toEqual([44, 44]);
    expect((invoices[1].line_items as Json[]).map(shown)).toEqual([
      [item.seat, 1, 49, 49],
      [item.fixedOff, 1, 5, -5],
    ]);
  });

  it('bills a one-time line (tierset paycycle one) once, on its first invoice', async () => {
    const [first, second] = await invoicesOf(sub.once);
    // Jan 5: 10.00 + 250.00 = 260.00; Feb 5: the plan alone, 10.00.
    expect((first.line_items as Json[]).map(shown)).toEqual([
      [item.plan, 1, 10, 10],
      [item.onboarding, 1, 250, 250],
    ]);
    expect([first.total, second.total]).toEqual([260, 10]);
    expect((second.line_items as Json[]).map((l) => l.item_id)).toEqual([item.plan]);
    // Billed once, the one-time line has ended (its expire_datetime is its first invoice's run).
    const lines = (await t.get(`/api/v3/package/${sub.once}`).expect(200)).body.response.line_items as Json[];
    expect(lines.find((l) => l.item_id === item.onboarding)!.expire_datetime).toBe('2026-01-05T09:01:00-06:00');
  });

  it('shows a line as the same item and quantity on a one-off invoice (line_quantity 3)', async () => {
    const [first] = await invoicesOf(sub.quantity);
    // 3 × 11.00 = 33.00.
    expect((first.line_items as Json[]).map(shown)).toEqual([[item.unit, 3, 11, 33]]);
    const oneOff = await make.newInvoiceOf(t, customer.quantity, [{ item_id: item.unit, line_quantity: 3 }]);
    expect(((await invoice(oneOff)).line_items as Json[]).map(shown)).toEqual([[item.unit, 3, 11, 33]]);
  });

  it('counts a line in trial in MRR once its trial ends', async () => {
    // The first invoice: 49.00 + setup 100.00 + one-time 250.00 + the add-on free in trial = 399.00.
    const [first] = await invoicesOf(sub.mrr);
    expect(first.total).toBe(399);
    // Its trial (30 days from Jan 5 09:00) ended Feb 4 09:00; the Feb 5 cycle is billed:
    // 49.00 + 20.00 = 69.00; ARR = 12 × 69.00 = 828.00.
    expect(await customerOf(customer.mrr)).toMatchObject({ mrr: 69, arr: 828 });

    // Between cycles: a 10-day trial from Feb 5 09:01 ends Feb 15 09:01; the nightly job of
    // Feb 16 counts it, before the next cycle (Mar 5). 49.00 → 49.00 + 20.00 = 69.00.
    await newSubscription('trialing', [{ item_id: item.seat }, { item_id: item.addon, trial_days: 10 }]);
    expect(await customerOf(customer.trialing)).toMatchObject({ mrr: 49, arr: 588 });
    await moveClock(t, cst('2026-02-15T12:00:00'));
    expect(await customerOf(customer.trialing)).toMatchObject({ mrr: 49 });
    await moveClock(t, cst('2026-02-16T00:30:00'));
    await t.app.get(NightlyJob).runDue();
    expect(await customerOf(customer.trialing)).toMatchObject({ mrr: 69, arr: 828 });
  }, 180_000);

  it('credits no usage when a usage-only subscription is cancelled with proration', async () => {
    // Mid-cycle (Feb 5 .. Mar 5, billed): a metered line has nothing billed in advance, so
    // the cancel credits nothing (it priced the line at 0.50 for one unit and refused the
    // negative invoice of −0.50 × 17/28 before).
    await t
      .post(`/api/v3/package/${sub.usageOnly}?action=cancel`, { cancel_prorate: true, subscribe_prorate_cycle: 'now' })
      .expect(200);
    const pending = await t.dataSource.getRepository(PendingProration).count({ where: { package_id: sub.usageOnly } });
    expect(pending).toBe(0);
    const transactions = (await t.get(`/api/v3/transaction?where=customer_id:EQUALS:${customer.usageOnly}`).expect(200))
      .body.response as Json[];
    expect(transactions).toEqual([]);
    expect(await customerOf(customer.usageOnly)).toMatchObject({ balance: 0, mrr: 0 });
  });

  it('keeps applied = payments + credits − refunds and re-opens what a refund gives back', async () => {
    const c = await make.newCustomer(t, { company: 'Refunded' });
    const pay = async (invoiceId: number): Promise<number> =>
      (
        await t
          .post('/api/v3/transaction?action=pay', {
            customer_id: c,
            amount: '30.00',
            applied_to: [invoiceId],
            paymethods: [make.newCard()],
          })
          .expect(200)
      ).body.response.id as number;
    const full = await make.newInvoiceOf(t, c, [{ item_id: item.plan, line_rate: 30 }]);
    const fullPayment = await pay(full);
    expect(await invoice(full)).toMatchObject({ payments: 30, refunds: 0, applied: 30, balance: 0 });
    await t.post(`/api/v3/transaction/${fullPayment}?action=refund`, {}).expect(200);
    // payments 30, refunds 30: applied = 30 + 0 − 30 = 0; balance = 30.00 − 0 − 0 = 30.00.
    expect(await invoice(full)).toMatchObject({
      total: 30,
      payments: 30,
      refunds: 30,
      applied: 0,
      balance: 30,
      invoice_status_str: 'open-unpaid',
    });

    const part = await make.newInvoiceOf(t, c, [{ item_id: item.plan, line_rate: 30 }]);
    const partPayment = await pay(part);
    await t.post(`/api/v3/transaction/${partPayment}?action=refund`, { amount: '12.50' }).expect(200);
    // applied = 30.00 − 12.50 = 17.50; balance = 30.00 − 17.50 = 12.50.
    expect(await invoice(part)).toMatchObject({ payments: 30, refunds: 12.5, applied: 17.5, balance: 12.5 });
  });

  it("takes the customer's default payment method when none is given, and its invoices say so", async () => {
    const c = await make.newCustomer(t, { company: 'Card default' });
    const card = await createId(t, '/api/v3/creditcard', { customer_id: c, ...make.newCard() });
    await t.post(`/api/v3/customer/${c}?action=setPayMethod`, { creditcard_id: card }).expect(200);
    const onCard = await make.newSubscription(t, c, [{ item_id: item.plan }]);
    expect((await t.get(`/api/v3/package/${onCard}`).expect(200)).body.response).toMatchObject({
      paymethod: 'crd',
      creditcard_id: card,
    });
    const plain = await make.newCustomer(t, { company: 'No default' });
    const onInvoice = await make.newSubscription(t, plain, [{ item_id: item.plan }]);
    expect((await t.get(`/api/v3/package/${onInvoice}`).expect(200)).body.response).toMatchObject({
      paymethod: 'inv',
    });

    await moveClock(t, new Date(t.clock.now().getTime() + 60_000));
    // As the collection tests do: the pass that charges what the run enrolled, awaited here.
    await t.app.get(InvoiceCollector).collectDue();
    const [charged] = await invoicesOf(onCard);
    // Charged by collection as any card subscription: 10.00 paid, nothing left.
    expect(charged).toMatchObject({ total: 10, payments: 10, applied: 10, balance: 0 });
    expect((charged.schedule as Json[]).map((s) => s.paymethod)).toEqual(['crd']);
    const [unpaid] = await invoicesOf(onInvoice);
    expect(unpaid).toMatchObject({ total: 10, balance: 10 });
    expect((unpaid.schedule as Json[]).map((s) => s.paymethod)).toEqual(['inv']);
  });
});
