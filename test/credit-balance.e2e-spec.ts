import { DateTime } from 'luxon';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

const ZONE = 'America/Chicago';

function wall(date: string, time = '10:00:00'): string {
  return DateTime.fromISO(`${date}T${time}`, { zone: ZONE }).toISO({ suppressMilliseconds: true })!;
}

/**
 * The credit balance (DESIGN §6 "Credits"): an invoice never goes below zero; what a
 * subscription gives back becomes a credit memo (`cre`, `gateway_method: credit`) that
 * the server applies, oldest first, to the invoices it issues itself. Every figure below
 * is worked out by hand in the comment beside it.
 */
describe('credit balance', () => {
  let t: TestApp;
  let big: number;
  let small: number;
  let plan: number;
  let calls: number;

  const pkg = async (id: number): Promise<Json> => (await t.get(`/api/v3/package/${id}`).expect(200)).body.response;
  const act = (id: number, action: string, body: Json = {}) => t.post(`/api/v3/package/${id}?action=${action}`, body);
  const invoicesOf = async (id: number): Promise<Json[]> => {
    const list = (
      await t.get(`/api/v3/invoice?where=package_id:EQUALS:${id}&order=invoice_id:ASC&limit=500`).expect(200)
    ).body.response as Json[];
    return Promise.all(
      list.map(async (i) => (await t.get(`/api/v3/invoice/${i.invoice_id as number}`).expect(200)).body.response),
    );
  };
  const creditsOf = async (customer: number): Promise<Json[]> =>
    (
      await t
        .get(
          `/api/v3/transaction?where=customer_id:EQUALS:${customer},transaction_type:EQUALS:cre&order=transaction_id:ASC`,
        )
        .expect(200)
    ).body.response as Json[];
  const customerOf = async (id: number): Promise<Json> =>
    (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;

  /**
   * A later test starts years on without stepping through the days between (the test clock
   * would run every nightly job on the way): every subscription of the tests before has ended.
   */
  const jump = (to: string): void => t.clock.set(new Date(to));

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true' });
    t.clock.set(new Date(wall('2026-01-05', '09:00:00')));
    big = await createId(t, '/api/v3/item', { name: 'Big', pricemodel: { pricemodel: 'fla', base: '49.99' } });
    small = await createId(t, '/api/v3/item', { name: 'Small', pricemodel: { pricemodel: 'fla', base: '5.00' } });
    plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: '31.00' } });
    calls = await createId(t, '/api/v3/item', {
      name: 'API calls',
      is_usage: true,
      tiersets: [{ pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }] }],
    });
  }, 120_000);
  afterAll(() => t.close());

  it('a downgrade credit larger than the next invoice becomes a credit memo consumed to the cent', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Downgrader' });
    const id = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: big }] });
    await moveClock(t, wall('2026-01-05', '10:00:00')); // cycle Jan 5 .. Feb 5 (anchored 09:00) billed: 49.99
    await moveClock(t, wall('2026-02-05', '10:00:00')); // cycle Feb 5 .. Mar 5 billed: 49.99
    const [line] = (await pkg(id)).line_items as Json[];
    await moveClock(t, wall('2026-02-05', '12:00:00')); // first day of the cycle
    await act(id, 'upgrade', {
      line_items: [{ line_item_id: line.line_item_id, item_id: small, subscribe_prorate: true, cancel_prorate: true }],
    }).expect(200);
    await moveClock(t, wall('2026-03-05', '10:00:00'));
    // Feb 5 .. Mar 5 has 28 days, all 28 left: fraction 28/28 = 1.000000000.
    // Mar 5 invoice would carry 5.00 (in advance) + 5.00 × 1 − 49.99 × 1 = −39.99: the 49.99
    // credit goes to a memo, the invoice bills the 10.00 charges, paid from the memo.
    const third = (await invoicesOf(id))[2];
    expect(third.line_items.map((l: Json) => l.line_total)).toEqual([5, 5]);
    expect(third).toMatchObject({ total: 10, credits: 10, balance: 0, invoice_status_str: 'closed-paid' });
    const [memo] = await creditsOf(customer);
    // 49.99 − 10.00 = 39.99 left to the customer.
    expect(memo).toMatchObject({ amount: 49.99, gateway_method: 'credit', applied: 10, unapplied: 39.99 });
    expect(memo.memo).toContain(`subscription ${id}`);
    expect((await pkg(id)).next_invoice_datetime).toBe(wall('2026-04-05', '09:00:00')); // the anchor: created at 09:00
    // Apr 5 .. Oct 5: seven invoices of 5.00, each paid from the memo: 39.99 − 7 × 5.00 = 4.99.
    // Nov 5: 5.00, 4.99 from the memo, 0.01 left to pay.
    await moveClock(t, wall('2026-11-05', '11:00:00'));
    const all = await invoicesOf(id);
    expect(all.map((i) => [i.date, i.total, i.balance])).toEqual([
      ['2026-01-05', 49.99, 49.99],
      ['2026-02-05', 49.99, 49.99],
      ['2026-03-05', 10, 0],
      ['2026-04-05', 5, 0],
      ['2026-05-05', 5, 0],
      ['2026-06-05', 5, 0],
      ['2026-07-05', 5, 0],
      ['2026-08-05', 5, 0],
      ['2026-09-05', 5, 0],
      ['2026-10-05', 5, 0],
      ['2026-11-05', 5, 0.01],
    ]);
    expect((await creditsOf(customer))[0]).toMatchObject({ applied: 49.99, unapplied: 0 });
    // Owed: 49.99 + 49.99 + 0.01 = 99.99.
    expect((await customerOf(customer)).balance).toBe(99.99);
    await act(id, 'cancel').expect(200); // the later tests move the clock on by years
  }, 900_000);

  /** A customer with a 31.00 plan and a metered line (0.50 a call), billed Mar 1 .. Apr 1 (31 days) at 09:00 of `year`
   * (each test a later year: the clock only moves forward). */
  const march = async (company: string, year: number): Promise<{ customer: number; id: number; metered: number }> => {
    jump(wall(`${year}-03-01`, '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: plan }, { item_id: calls }],
    });
    await moveClock(t, wall(`${year}-03-01`, '09:30:00'));
    expect((await invoicesOf(id)).map((i) => i.total)).toEqual([31]); // first invoice: no usage line
    const metered = ((await pkg(id)).line_items as Json[]).find((l) => l.item_id === calls)!.line_item_id as number;
    await t.post('/api/v3/usage', {
      line_item_id: metered,
      usage_value: 8,
      from: `${year}-03-10`,
      to: `${year}-03-10`,
    });
    return { customer, id, metered };
  };

  it('cancel now with cancel_prorate credits the unused part at once and bills the usage on a final invoice', async () => {
    const { customer, id } = await march('Canceller now', 2027);
    await moveClock(t, wall('2027-03-21', '12:00:00'));
    await act(id, 'cancel', { cancel_prorate: true }).expect(200);
    // Mar 21 .. Apr 1: 11 of 31 days left, 11/31 = 0.354838710; 31.00 × 0.354838710 = 11.00000001 -> 11.00.
    const [memo] = await creditsOf(customer);
    expect(memo).toMatchObject({ amount: 11, gateway_method: 'credit', transaction_type: 'cre' });
    expect(memo.memo).toContain(`subscription ${id}`);
    // Final invoice: usage since Mar 1 09:00, 8 calls × 0.50 = 4.00, paid from the memo (11.00 − 4.00 = 7.00 left).
    const [, final] = await invoicesOf(id);
    expect(final.line_items.map((l: Json) => [l.is_usage, l.line_usage, l.line_total])).toEqual([[true, 8, 4]]);
    expect(final).toMatchObject({ total: 4, credits: 4, balance: 0 });
    expect((await creditsOf(customer))[0]).toMatchObject({ applied: 4, unapplied: 7 });
    // Due: the March invoice, 31.00 (`balance` is what the invoices owe; the 7.00 open credit
    // goes to the next invoice the server issues, or to this one by `pay {use_customer_balance}`).
    expect((await customerOf(customer)).balance).toBe(31);
    expect(await pkg(id)).toMatchObject({ package_status_str: 'canceled-manual', next_invoice_datetime: '' });
    // Nothing more, ever: no cycle, no second final invoice.
    await moveClock(t, wall('2027-05-02'));
    expect(await invoicesOf(id)).toHaveLength(2);
    expect(await creditsOf(customer)).toHaveLength(1);
  }, 900_000);

  it('a future cancel_date with cancel_prorate credits and bills the final usage on that date, once', async () => {
    const { customer, id, metered } = await march('Canceller later', 2028);
    await moveClock(t, wall('2028-03-21', '12:00:00'));
    await act(id, 'cancel', { cancel_date: '2028-03-26', cancel_prorate: true }).expect(200);
    expect(await creditsOf(customer)).toEqual([]);
    expect(await invoicesOf(id)).toHaveLength(1);
    await t.post('/api/v3/usage', { line_item_id: metered, usage_value: 2, from: '2028-03-24', to: '2028-03-24' });
    await moveClock(t, wall('2028-03-26', '01:00:00'));
    // Mar 26 00:00 .. Apr 1: 6 of 31 days left, 6/31 = 0.193548387; 31.00 × 0.193548387 = 5.999999997 -> 6.00.
    const [memo] = await creditsOf(customer);
    expect(memo).toMatchObject({ amount: 6, gateway_method: 'credit' });
    // Final invoice: (8 + 2) calls × 0.50 = 5.00, paid from the memo (6.00 − 5.00 = 1.00 left).
    const [, final] = await invoicesOf(id);
    expect(final).toMatchObject({ total: 5, credits: 5, balance: 0 });
    expect((await creditsOf(customer))[0]).toMatchObject({ applied: 5, unapplied: 1 });
    // Due: the March invoice, 31.00 (1.00 of open credit left).
    expect((await customerOf(customer)).balance).toBe(31);
    await moveClock(t, wall('2028-05-02'));
    expect(await invoicesOf(id)).toHaveLength(2);
    expect(await creditsOf(customer)).toHaveLength(1);
  }, 900_000);

  it('a now downgrade that nets to a credit bills the charge and gives the rest as a credit memo', async () => {
    jump(wall('2029-03-01', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Downgrader now' });
    const id = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: big }] });
    await moveClock(t, wall('2029-03-01', '09:30:00')); // Mar 1 .. Apr 1 billed: 49.99
    const [line] = (await pkg(id)).line_items as Json[];
    await moveClock(t, wall('2029-03-21', '12:00:00'));
    await act(id, 'upgrade', {
      subscribe_prorate_cycle: 'now',
      line_items: [{ line_item_id: line.line_item_id, item_id: small, subscribe_prorate: true, cancel_prorate: true }],
    }).expect(200);
    // 11/31 = 0.354838710: charge 5.00 × 0.354838710 = 1.7741935 -> 1.77;
    // credit 49.99 × 0.354838710 = 17.738387113 -> 17.74; net −15.97.
    const [, now] = await invoicesOf(id);
    expect(now.line_items.map((l: Json) => [l.line_prorate, l.line_total])).toEqual([[0.35483871, 1.77]]);
    expect(now).toMatchObject({ total: 1.77, credits: 1.77, balance: 0 });
    // 17.74 − 1.77 = 15.97 left; due: the March invoice, 49.99.
    expect((await creditsOf(customer))[0]).toMatchObject({ amount: 17.74, applied: 1.77, unapplied: 15.97 });
    expect((await customerOf(customer)).balance).toBe(49.99);
    // Paying March from the customer's balance: 49.99 − 15.97 = 34.02 still due.
    const march = (await invoicesOf(id))[0].invoice_id as number;
    await t.post(`/api/v3/invoice/${march}?action=pay`, { use_customer_balance: true }).expect(200);
    expect((await customerOf(customer)).balance).toBe(34.02);
    await act(id, 'cancel').expect(200);
  }, 900_000);

  it('open credit goes oldest first to invoices the server issues, never by itself to POST /invoice', async () => {
    jump(wall('2030-01-07', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Credited' });
    const memo = (amount: string) =>
      createId(t, '/api/v3/transaction', {
        customer_id: customer,
        transaction_type: 'cre',
        gateway_method: 'credit',
        amount,
      });
    const older = await memo('20.00');
    const newer = await memo('50.00');
    // POST /invoice: untouched (31.00 due) until pay {use_customer_balance}.
    const manual = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: plan }] });
    const invoice = async (id: number) => (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
    expect(await invoice(manual)).toMatchObject({ total: 31, credits: 0, balance: 31 });
    // Quote conversion: 49.99, 20.00 from the older memo then 29.99 from the newer (20.01 left).
    const quote = await createId(t, '/api/v3/quote', {
      customer_id: customer,
      paycycle: 'one',
      line_items: [{ item_id: big }],
    });
    const converted = (await t.post(`/api/v3/quote/${quote}?action=convert`, {}).expect(200)).body.response as Json;
    expect(await invoice(converted.id as number)).toMatchObject({ total: 49.99, credits: 49.99, balance: 0 });
    const transaction = async (id: number) => (await t.get(`/api/v3/transaction/${id}`).expect(200)).body.response;
    expect(await transaction(older)).toMatchObject({ applied: 20, unapplied: 0 });
    expect(await transaction(newer)).toMatchObject({ applied: 29.99, unapplied: 20.01 });
    // A billing run's invoice: 31.00, 20.01 from the newer memo, 10.99 left to collect.
    const id = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await moveClock(t, wall('2030-01-07', '10:00:00'));
    const [first] = await invoicesOf(id);
    expect(first).toMatchObject({ total: 31, credits: 20.01, balance: 10.99 });
    expect(await transaction(newer)).toMatchObject({ applied: 50, unapplied: 0 });
    // Due: 31.00 (POST /invoice) + 10.99 = 41.99.
    expect((await customerOf(customer)).balance).toBe(41.99);
    await act(id, 'cancel').expect(200);
  }, 900_000);

  it('after the last expire_recurs, the usage of the last cycle goes on a final invoice when it ends, once', async () => {
    jump(wall('2031-01-06', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Expiring' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [
        { item_id: plan, expire_recurs: 2 },
        { item_id: calls, expire_recurs: 2 },
      ],
    });
    const metered = ((await pkg(id)).line_items as Json[]).find((l) => l.item_id === calls)!.line_item_id as number;
    await moveClock(t, wall('2031-01-20', '12:00:00'));
    await t.post('/api/v3/usage', { line_item_id: metered, usage_value: 4, from: '2031-01-20' }).expect(201);
    await moveClock(t, wall('2031-02-20', '12:00:00'));
    // Jan 6: 31.00 (no usage on the first invoice); Feb 6: 31.00 + 4 calls × 0.50 = 33.00, the second and last.
    expect((await invoicesOf(id)).map((i) => i.total)).toEqual([31, 33]);
    expect((await pkg(id)).package_status_str).toBe('expired-expired');
    await t.post('/api/v3/usage', { line_item_id: metered, usage_value: 10, from: '2031-02-20' }).expect(201);
    // The last cycle, Feb 6 .. Mar 6, ends: its 10 calls × 0.50 = 5.00 on a final invoice.
    await moveClock(t, wall('2031-03-06', '10:00:00'));
    const all = await invoicesOf(id);
    expect(all.map((i) => i.total)).toEqual([31, 33, 5]);
    expect(all[2].line_items.map((l: Json) => [l.is_usage, l.line_usage, l.line_total])).toEqual([[true, 10, 5]]);
    await moveClock(t, wall('2031-05-07'));
    expect(await invoicesOf(id)).toHaveLength(3);
  }, 900_000);

  it('removing a line with cancel_prorate on the first day of a cycle credits it beyond the next invoice', async () => {
    jump(wall('2032-01-05', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Remover' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: big }, { item_id: small }],
    });
    await moveClock(t, wall('2032-02-05', '10:00:00')); // Jan 5 and Feb 5: 49.99 + 5.00 = 54.99 each
    const [bigLine] = (await pkg(id)).line_items as Json[];
    await moveClock(t, wall('2032-02-05', '12:00:00'));
    await act(id, 'upgrade', {
      cancel_prorate: true,
      line_items: [{ line_item_id: bigLine.line_item_id, cancel: true }],
    }).expect(200);
    await moveClock(t, wall('2032-03-05', '10:00:00'));
    // Feb 5 .. Mar 5 2032 (a leap year: 29 days), all 29 left: 49.99 × 1 = 49.99 credited; Mar 5
    // would carry 5.00 − 49.99 = −44.99: the invoice bills 5.00, paid from a 49.99 memo (44.99 left).
    const all = await invoicesOf(id);
    expect(all.map((i) => [i.total, i.balance])).toEqual([
      [54.99, 54.99],
      [54.99, 54.99],
      [5, 0],
    ]);
    expect((await creditsOf(customer))[0]).toMatchObject({ amount: 49.99, applied: 5, unapplied: 44.99 });
    await act(id, 'cancel').expect(200);
  }, 900_000);

  it('cancel with cancel_prorate credits nothing for a cycle billed free in trial', async () => {
    jump(wall('2033-03-01', '09:00:00'));
    const customer = await createId(t, '/api/v3/customer', { company: 'Trialist' });
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      line_items: [{ item_id: plan, trial_days: 40 }],
    });
    await moveClock(t, wall('2033-03-01', '09:30:00')); // Mar 1 .. Apr 1 in trial: 0.00
    expect((await invoicesOf(id)).map((i) => i.total)).toEqual([0]);
    await moveClock(t, wall('2033-03-21', '12:00:00'));
    await act(id, 'cancel', { cancel_prorate: true }).expect(200);
    // Nothing was paid for March: nothing to give back.
    expect(await creditsOf(customer)).toEqual([]);
    expect(await invoicesOf(id)).toHaveLength(1);
  }, 900_000);
});
