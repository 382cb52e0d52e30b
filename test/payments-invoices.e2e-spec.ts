import { AchSettlementJob } from 'src/transactions/ach-settlement.job';
import { DueWorkScheduler } from 'src/core/schedule/due-work-scheduler';
import { SubscriptionPaymethods } from 'src/transactions/subscription-paymethod';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { spyOnStatements } from './support/statement-count';
import { Json } from './support/json';

/**
 * Transactions applied to invoices: every application style, changeAppliedAmounts,
 * payments, refunds, voids and returns, with invoice and customer figures checked to
 * the cent against hand-computed values.
 */
describe('payments applied to invoices', () => {
  let t: TestApp;
  let item: number;

  beforeAll(async () => {
    t = await createTestApp();
    // Thursday 2026-11-19, 09:00 in Chicago.
    t.clock.set(new Date('2026-11-19T15:00:00Z'));
    item = await make.newItem(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const newCustomer = (extra: Json = {}) => make.newCustomer(t, { superuser_email: 'ap@payer.test', ...extra });
  const newInvoice = (customerId: number, date: string, rate: string) =>
    make.newInvoice(t, customerId, item, { date, rate });
  /** Three invoices (Nov 1, 5, 10; not yet due): 100.00, 250.50, 75.25; total 425.75. */
  async function threeInvoices(customerId: number): Promise<[number, number, number]> {
    return [
      await newInvoice(customerId, '2026-11-01', '100.00'),
      await newInvoice(customerId, '2026-11-05', '250.50'),
      await newInvoice(customerId, '2026-11-10', '75.25'),
    ];
  }
  const invoice = async (id: number): Promise<Json> => (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response;
  const txn = async (id: number): Promise<Json> => (await t.get(`/api/v3/transaction/${id}`).expect(200)).body.response;
  const customer = async (id: number): Promise<Json> =>
    (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;
  const balances = async (ids: number[]) => Promise.all(ids.map(async (id) => (await invoice(id)).balance as number));
  const card = (number = '4242424242424242') => make.newCard({ number });
  async function record(customerId: number, body: Record<string, unknown>): Promise<number> {
    const res = await t.post('/api/v3/transaction', {
      customer_id: customerId,
      transaction_type: 'pay',
      gateway_method: 'check',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.response.id;
  }
  const count = async (path: string) => (await t.get(`${path}/_count`).expect(200)).body.response as number;

  it('applied_to ids: in the order given, up to each balance', async () => {
    const c = await newCustomer();
    const [i1, i2, i3] = await threeInvoices(c);
    const id = await record(c, { amount: '300.00', applied_to: [{ invoice_id: i2 }, { invoice_id: i1 }] });
    expect(await txn(id)).toMatchObject({
      applied: 300,
      unapplied: 0,
      applied_to: [
        { transaction_id: id, invoice_id: i2, applied: 250.5 },
        { transaction_id: id, invoice_id: i1, applied: 49.5 },
      ],
    });
    expect(await invoice(i2)).toMatchObject({
      payments: 250.5,
      applied: 250.5,
      balance: 0,
      is_paid: true,
      paid_date: '2026-11-19',
      invoice_status_str: 'closed-paid',
      invoice_status_state: 'c',
    });
    expect(await invoice(i1)).toMatchObject({ payments: 49.5, balance: 50.5, is_paid: false });
    expect(await balances([i1, i2, i3])).toEqual([50.5, 0, 75.25]);
    expect(await customer(c)).toMatchObject({ total: 425.75, balance: 125.75, paid: 300 });
  });

  it('applied_to splits: a credit memo of 60.00 split 10.10 / 20.00, the rest unapplied', async () => {
    const c = await newCustomer();
    const [i1, , i3] = await threeInvoices(c);
    const id = await record(c, {
      transaction_type: 'cre',
      gateway_method: 'credit',
      amount: 60,
      applied_to: [
        { invoice_id: i1, applied: '10.10' },
        { invoice_id: i3, applied: 20 },
      ],
    });
    expect(await txn(id)).toMatchObject({ applied: 30.1, unapplied: 29.9 });
    expect(await invoice(i1)).toMatchObject({ credits: 10.1, payments: 0, balance: 89.9 });
    expect(await invoice(i3)).toMatchObject({ credits: 20, balance: 55.25 });
    expect(await customer(c)).toMatchObject({ total: 425.75, balance: 395.65, paid: 0 });
  });

  it.each([
    ['oldest_first', '120.00', [0, 230.5, 75.25]],
    ['newest_first', '100.00', [100, 225.75, 0]],
    ['best_fit', '250.50', [100, 0, 75.25]],
    ['best_fit', '130.00', [0, 220.5, 75.25]],
  ])('auto_apply %s of %s', async (order, amount, expected) => {
    const c = await newCustomer();
    const ids = await threeInvoices(c);
    const id = await record(c, { amount, auto_apply: order });
    expect(await balances(ids)).toEqual(expected);
    expect((await txn(id)).unapplied).toBe(0);
    const due = expected.reduce((a, b) => a + b, 0);
    expect((await customer(c)).balance).toBeCloseTo(due, 2);
  });

  it('auto_apply more than is owed leaves the rest unapplied', async () => {
    const c = await newCustomer();
    const ids = await threeInvoices(c);
    const id = await record(c, { amount: '500.00', auto_apply: 'oldest_first' });
    expect(await balances(ids)).toEqual([0, 0, 0]);
    expect(await txn(id)).toMatchObject({ applied: 425.75, unapplied: 74.25 });
    expect(await customer(c)).toMatchObject({ balance: 0, paid: 500 });
  });

  it('customer figures add many invoices and partial payments to the cent, on a read and on a list page', async () => {
    const c = await newCustomer({ company: 'Figures Monthly' });
    // A year of 0.07 invoices (floats: 12 x 0.07 = 0.8400000000000001), then 0.10, 0.20, 33.33.
    const monthly: number[] = [];
    for (let month = 1; month <= 12; month++) {
      monthly.push(await newInvoice(c, `2025-${String(month).padStart(2, '0')}-01`, '0.07'));
    }
    const [dime, fifth, big] = [
      await newInvoice(c, '2026-01-05', '0.10'),
      await newInvoice(c, '2026-01-06', '0.20'),
      await newInvoice(c, '2026-01-07', '33.33'),
    ];
    // A void invoice counts for nothing.
    const voided = await newInvoice(c, '2026-01-08', '50.00');
    await t.post(`/api/v3/invoice/${voided}?action=void`, {}).expect(200);
    await record(c, { amount: '0.10', applied_to: [dime] });
    await record(c, { amount: '0.21', applied_to: monthly.slice(0, 3) });
    await record(c, { amount: '10.00', applied_to: [{ invoice_id: big, applied: '10.00' }] });
    await record(c, { amount: '0.05' }); // paid, applied to nothing
    expect(await balances([dime, fifth, big, ...monthly.slice(0, 4)])).toEqual([0, 0.2, 23.33, 0, 0, 0, 0.07]);

    // total 0.84 + 0.10 + 0.20 + 33.33; paid 0.10 + 0.21 + 10.00 + 0.05; balance total less 10.31 applied.
    const figures = { total: 34.47, paid: 10.36, balance: 24.16 };
    const other = await newCustomer({ company: 'Figures Other' });
    await newInvoice(other, '2026-01-05', '0.30');

    // The figures are read by the customer SELECT itself: one statement per read or page.
    // The counters see every query of the process: stop the background timers (webhook
    // sweep, ACH settlement; tests run those jobs themselves).
    t.app.get(DueWorkScheduler).stop();
    const statements = await spyOnStatements(t.dataSource);
    try {
      expect(await customer(c)).toMatchObject(figures);
      expect(statements.count()).toBe(1);
      const page = await t.get('/api/v3/customer?where=company:CONTAINS:Figures&order=company:ASC').expect(200);
      expect(page.body.response).toEqual([
        expect.objectContaining({ customer_id: c, ...figures }),
        expect.objectContaining({ customer_id: other, total: 0.3, paid: 0, balance: 0.3 }),
      ]);
      expect(statements.count()).toBe(2);
      // The status is derived in the same statement, for a filter on it too (both owe since early 2026).
      const overdue = await t
        .get('/api/v3/customer?where=customer_status_str:EQUALS:active-overdue,company:CONTAINS:Figures')
        .expect(200);
      expect(overdue.body.response).toHaveLength(2);
      expect(statements.count()).toBe(3);
    } finally {
      statements.restore();
    }
  });

  it('changeAppliedAmounts replaces, omits and empties, reopening what it leaves', async () => {
    const c = await newCustomer();
    const [i1, i2, i3] = await threeInvoices(c);
    const id = await record(c, { amount: '200.00', applied_to: [i1] });
    expect(await invoice(i1)).toMatchObject({ invoice_status_str: 'closed-paid' });
    expect(await txn(id)).toMatchObject({ applied: 100, unapplied: 100 });

    await t
      .post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, {
        applied_to: [
          { invoice_id: i2, applied: 150 },
          { invoice_id: i3, applied: 50 },
        ],
      })
      .expect(200);
    expect(await balances([i1, i2, i3])).toEqual([100, 100.5, 25.25]);
    expect(await invoice(i1)).toMatchObject({ invoice_status_str: 'open-unpaid', is_paid: false, paid_date: null });
    expect(await txn(id)).toMatchObject({ applied: 200, unapplied: 0 });
    expect(await customer(c)).toMatchObject({ balance: 225.75, paid: 200 });

    await t
      .post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, { applied_to: [{ invoice_id: i3, applied: 10 }] })
      .expect(200);
    expect(await balances([i1, i2, i3])).toEqual([100, 250.5, 65.25]);
    expect(await txn(id)).toMatchObject({ applied: 10, unapplied: 190 });

    await t.post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, { applied_to: [] }).expect(200);
    expect(await balances([i1, i2, i3])).toEqual([100, 250.5, 75.25]);
    expect(await txn(id)).toMatchObject({ applied: 0, unapplied: 200, applied_to: [] });
    expect(await customer(c)).toMatchObject({ balance: 425.75, paid: 200 });

    const over = await t
      .post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, {
        applied_to: [{ invoice_id: i1, applied: 100.01 }],
      })
      .expect(400);
    expect(over.body.message).toBe(
      `Field "applied_to[0].applied": 100.01 is more than the balance of invoice ${i1} (100.00).`,
    );
    const tooMuch = await t
      .post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, {
        applied_to: [
          { invoice_id: i1, applied: 100 },
          { invoice_id: i2, applied: 100.01 },
        ],
      })
      .expect(400);
    expect(tooMuch.body.message).toContain('add up to more than');
    expect(await balances([i1, i2, i3])).toEqual([100, 250.5, 75.25]);
  });

  describe('pay', () => {
    it('computes the amount from the invoices and closes them; a status event is recorded', async () => {
      const c = await newCustomer();
      const [i1, i2] = await threeInvoices(c);
      const res = await t
        .post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [i1, String(i2)], paymethods: [card()] })
        .expect(200);
      const id = res.body.response.id;
      expect(await txn(id)).toMatchObject({ amount: 350.5, applied: 350.5, unapplied: 0 });
      expect(await invoice(i1)).toMatchObject({ payments: 100, balance: 0, invoice_status_str: 'closed-paid' });
      expect(await invoice(i2)).toMatchObject({ payments: 250.5, balance: 0, is_paid: true });
      const events = await t.dataSource.query<Array<{ context_id: string }>>(
        `SELECT context_id FROM domain_event WHERE context_str = 'invoice' AND event = 'status' AND context_id IN ('${i1}', '${i2}')`,
      );
      expect(events.map((e) => Number(e.context_id)).sort()).toEqual([i1, i2].sort());
      expect(await customer(c)).toMatchObject({ balance: 75.25, paid: 350.5 });
    });

    it('pays part of an invoice when the amount is given, and only what the splits say', async () => {
      const c = await newCustomer();
      const [i1, i2] = await threeInvoices(c);
      await t
        .post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [i1], amount: 40, paymethods: [card()] })
        .expect(200);
      expect(await invoice(i1)).toMatchObject({ payments: 40, balance: 60, invoice_status_str: 'open-unpaid' });
      const res = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: c,
          applied_to: [{ invoice_id: i2, applied: 50.25 }],
          paymethods: [card()],
        })
        .expect(200);
      expect(await txn(res.body.response.id)).toMatchObject({ amount: 50.25, applied: 50.25 });
      expect(await invoice(i2)).toMatchObject({ balance: 200.25 });
    });

    it('a decline counts on the invoice and leaves its balance', async () => {
      const c = await newCustomer();
      const [i1] = await threeInvoices(c);
      await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: c,
          applied_to: [i1],
          paymethods: [card('4000000000000002')],
        })
        .expect(400);
      expect(await invoice(i1)).toMatchObject({ declines: 1, balance: 100, payments: 0 });
    });

    it('a bank payment counts while pending, then a return reopens the invoice', async () => {
      const c = await newCustomer();
      const [i1] = await threeInvoices(c);
      const bank = { type: 'chec', number: '000111111116', routing: '110000000', name: 'Returned' };
      const res = await t
        .post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [i1], paymethods: [bank] })
        .expect(200);
      expect(await invoice(i1)).toMatchObject({ balance: 0, invoice_status_str: 'closed-paid' });
      const before = t.clock.now();
      try {
        t.clock.set(new Date('2026-11-24T15:00:00Z'));
        expect(await t.app.get(AchSettlementJob).run()).toBeGreaterThanOrEqual(1);
      } finally {
        t.clock.set(before);
      }
      expect(await txn(res.body.response.id)).toMatchObject({ transaction_status_str: 'fail-declined', applied: 0 });
      expect(await invoice(i1)).toMatchObject({
        balance: 100,
        payments: 0,
        declines: 1,
        invoice_status_str: 'open-unpaid',
      });
    });

    it('a voided payment reopens its invoice', async () => {
      const c = await newCustomer();
      const [i1] = await threeInvoices(c);
      const id = (
        await t
          .post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [i1], paymethods: [card()] })
          .expect(200)
      ).body.response.id;
      await t.post(`/api/v3/transaction/${id}?action=void`).expect(200);
      expect(await invoice(i1)).toMatchObject({ balance: 100, payments: 0, invoice_status_str: 'open-unpaid' });
      // One invoice/status event when it closed, one when it reopened.
      const events = await t.dataSource.query<Array<{ data: string }>>(
        `SELECT data FROM domain_event WHERE context_str = 'invoice' AND event = 'status' AND context_id = '${i1}' ORDER BY domain_event_id`,
      );
      expect(events.map((e) => (JSON.parse(e.data) as Json).invoice.invoice_status_str)).toEqual([
        'closed-paid',
        'open-unpaid',
      ]);
      expect(await customer(c)).toMatchObject({ paid: 0, balance: 425.75 });
    });

    it('a refund comes off the invoice: refunds, balance and status follow', async () => {
      const c = await newCustomer();
      const [i1] = await threeInvoices(c);
      const id = (
        await t
          .post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [i1], paymethods: [card()] })
          .expect(200)
      ).body.response.id;
      const refund = Number(
        (await t.post(`/api/v3/transaction/${id}?action=refund`, { amount: 40 }).expect(200)).body.response.id,
      );
      expect(await txn(refund)).toMatchObject({
        amount: -40,
        applied_to: [{ invoice_id: i1, applied: -40 }],
        payments: [id],
      });
      expect(await invoice(i1)).toMatchObject({
        payments: 100,
        refunds: 40,
        balance: 40,
        invoice_status_str: 'open-unpaid',
      });
      expect(await customer(c)).toMatchObject({ paid: 60, balance: 365.75 });
      await t.post(`/api/v3/transaction/${id}?action=refund`, { amount: 60.01 }).expect(400);
    });

    it('step 1 of the method selection: the subscription method of an invoice', async () => {
      const c = await newCustomer();
      const [i1] = await threeInvoices(c);
      const own = (await t.post('/api/v3/creditcard', { customer_id: c, ...card() }).expect(201)).body.response.id;
      const subscriptionCard = (
        await t.post('/api/v3/creditcard', { customer_id: c, ...card('5555555555554444') }).expect(201)
      ).body.response.id;
      await t.post(`/api/v3/customer/${c}?action=setPayMethod`, { creditcard_id: own }).expect(200);
      await t.dataSource.query(`UPDATE invoice SET package_id = 4242 WHERE invoice_id = ${i1}`);
      const hook = jest
        .spyOn(t.app.get(SubscriptionPaymethods), 'methodOf')
        .mockImplementation((_m, packageId) =>
          Promise.resolve(packageId === 4242 ? { creditcard_id: subscriptionCard } : null),
        );
      try {
        const res = await t.post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [i1] }).expect(200);
        expect(res.body.details.creditcard_id).toBe(subscriptionCard);
        expect(hook).toHaveBeenCalledWith(expect.anything(), 4242);
      } finally {
        hook.mockRestore();
      }
      // No subscription: the default (step 2).
      const [, i2] = [i1, await newInvoice(c, '2026-11-16', '10.00')];
      const res = await t.post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [i2] }).expect(200);
      expect(res.body.details.creditcard_id).toBe(own);
    });
  });

  describe('invoice action pay, scheduled payments, query fields', () => {
    it('POST /invoice/<id>?action=pay charges the balance like a payment request', async () => {
      const c = await newCustomer();
      const [i1] = await threeInvoices(c);
      const res = await t.post(`/api/v3/invoice/${i1}?action=pay`, { paymethods: [card()] }).expect(200);
      expect(res.body.details).toMatchObject({ gateway_status: 1, transaction_id: res.body.response.id });
      expect(await invoice(i1)).toMatchObject({ payments: 100, balance: 0, invoice_status_str: 'closed-paid' });
      const declined = await t.post(`/api/v3/invoice/${i1}/_action/pay`, { paymethods: [card()] }).expect(400);
      expect(declined.body.message).toBe('Field "applied_to": the invoices have nothing left to pay.');
      await t.post(`/api/v3/invoice/${i1}?action=pay`, { bogus: 1 }).expect(400);
      await t.post('/api/v3/invoice/999999?action=pay', { paymethods: [card()] }).expect(404);
    });

    it('use_customer_balance puts unapplied payments and credits on the invoice, oldest first', async () => {
      const c = await newCustomer();
      const [i1, i2] = await threeInvoices(c);
      const credit = await record(c, { transaction_type: 'cre', gateway_method: 'credit', amount: '30.00' });
      const payment = await record(c, { amount: '250.00' });
      await t.post(`/api/v3/invoice/${i1}?action=pay`, { use_customer_balance: true }).expect(200);
      expect(await invoice(i1)).toMatchObject({
        credits: 30,
        payments: 70,
        balance: 0,
        invoice_status_str: 'closed-paid',
      });
      expect(await txn(credit)).toMatchObject({ applied: 30, unapplied: 0 });
      expect(await txn(payment)).toMatchObject({ applied: 70, unapplied: 180 });
      await t.post(`/api/v3/invoice/${i2}?action=pay`, { use_customer_balance: true }).expect(200);
      expect(await invoice(i2)).toMatchObject({ payments: 180, balance: 70.5 });
      expect(await txn(payment)).toMatchObject({
        applied: 250,
        unapplied: 0,
        applied_to: [
          { invoice_id: i1, applied: 70 },
          { invoice_id: i2, applied: 180 },
        ],
      });
      const none = await t.post(`/api/v3/invoice/${i2}?action=pay`, { use_customer_balance: true }).expect(400);
      expect(none.body.message).toBe('The customer has no unapplied payments or credits to use.');
      expect(await customer(c)).toMatchObject({ total: 425.75, balance: 145.75, paid: 250 });
    });

    it('pays a scheduled payment by invoice_schedule_id', async () => {
      const c = await newCustomer();
      const [i1, i2] = await threeInvoices(c);
      const schedule = (await invoice(i1)).schedule[0];
      const res = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: c,
          applied_to: [{ invoice_id: i1, invoice_schedule_id: schedule.invoice_schedule_id }],
          paymethods: [card()],
        })
        .expect(200);
      expect(await txn(res.body.response.id)).toMatchObject({
        amount: 100,
        applied_to: [{ invoice_id: i1, invoice_schedule_id: schedule.invoice_schedule_id, applied: 100 }],
      });
      expect((await invoice(i1)).schedule[0]).toMatchObject({ balance: 0 });
      const bad = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: c,
          applied_to: [{ invoice_id: i2, invoice_schedule_id: schedule.invoice_schedule_id }],
          paymethods: [card()],
        })
        .expect(400);
      expect(bad.body.message).toBe(
        `Field "applied_to[0].invoice_schedule_id": invoice ${i2} has no scheduled payment ${schedule.invoice_schedule_id}.`,
      );
    });

    it('invoices by transaction.transaction_id and transactions by applied_to.* fields', async () => {
      const c = await newCustomer();
      const [i1, i2] = await threeInvoices(c);
      const id = await record(c, { amount: '120.00', applied_to: [i1, i2] });
      await t.dataSource.query(`UPDATE invoice SET package_id = 77 WHERE invoice_id = ${i2}`);
      const invoices = (await t.get(`/api/v3/invoice?where=transaction.transaction_id:EQUALS:${id}`).expect(200)).body
        .response;
      expect(invoices.map((i: Json) => i.invoice_id)).toEqual([i1, i2]);
      const byInvoice = (await t.get(`/api/v3/transaction?where=applied_to.invoice_id:EQUALS:${i2}`).expect(200)).body
        .response;
      expect(byInvoice.map((x: Json) => x.transaction_id)).toEqual([id]);
      const byPackage = (await t.get('/api/v3/transaction?where=applied_to.package_id:EQUALS:77').expect(200)).body
        .response;
      expect(byPackage.map((x: Json) => x.transaction_id)).toEqual([id]);
      expect(
        (await t.get('/api/v3/transaction/_count?where=applied_to.package_id:EQUALS:78').expect(200)).body.response,
      ).toBe(0);
    });
  });

  describe('bad input writes nothing', () => {
    it.each([
      ['an invoice of another customer', 'other', 'belongs to another customer'],
      ['an unknown invoice', 'unknown', 'no invoice with id 99999 exists'],
      ['more than the balance in a split', 'over', 'is more than the balance of invoice'],
      ['splits above the amount', 'sum', 'add up to more than the amount'],
    ])('%s', async (_name, kind, message) => {
      const c = await newCustomer();
      const other = await newCustomer();
      const [i1, i2] = await threeInvoices(c);
      const foreign = await newInvoice(other, '2026-11-15', '10.00');
      const appliedTo = {
        other: [{ invoice_id: i1 }, { invoice_id: foreign }],
        unknown: [{ invoice_id: 99999 }],
        over: [{ invoice_id: i1, applied: 100.01 }],
        sum: [
          { invoice_id: i1, applied: 6 },
          { invoice_id: i2, applied: 5 },
        ],
      }[kind];
      const before = await count('/api/v3/transaction');
      for (const [path, body] of [
        [
          '/api/v3/transaction',
          { customer_id: c, transaction_type: 'pay', gateway_method: 'check', amount: 10, applied_to: appliedTo },
        ],
        ['/api/v3/transaction?action=pay', { customer_id: c, amount: 10, applied_to: appliedTo, paymethods: [card()] }],
      ] as const) {
        const res = await t.post(path, body).expect(400);
        expect(res.body.message).toContain(message);
      }
      expect(await count('/api/v3/transaction')).toBe(before);
      expect(await balances([i1, i2])).toEqual([100, 250.5]);
    });

    it('a parent may pay its child, and then cannot be changed (customer rule 2)', async () => {
      const parent = await newCustomer();
      const child = await newCustomer({ parent_customer_id: parent });
      const inv = await newInvoice(child, '2026-11-15', '10.00');
      await record(parent, { amount: 10, applied_to: [inv] });
      expect(await invoice(inv)).toMatchObject({ balance: 0 });
      const res = await t.put(`/api/v3/customer/${child}`, { parent_customer_id: null }).expect(400);
      expect(res.body.message).toContain('the parent customer has made a payment for this customer');
      const untouched = await newCustomer({ parent_customer_id: parent });
      await t.put(`/api/v3/customer/${untouched}`, { parent_customer_id: null }).expect(202);
    });
  });

  it('concurrent refunds never give back more than was paid', async () => {
    const c = await newCustomer();
    const inv = await newInvoice(c, '2026-11-15', '50.00');
    const id = (
      await t
        .post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [inv], paymethods: [card()] })
        .expect(200)
    ).body.response.id;
    const results = await Promise.all(
      Array.from({ length: 6 }, () => t.post(`/api/v3/transaction/${id}?action=refund`, { amount: '30.00' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    expect(await invoice(inv)).toMatchObject({ payments: 50, refunds: 30, balance: 30 });
    expect(await customer(c)).toMatchObject({ paid: 20 });
  });

  it('20 concurrent full-balance payments pay the invoice exactly once', async () => {
    const c = await newCustomer();
    const inv = await newInvoice(c, '2026-11-15', '123.45');
    const cardId = (await t.post('/api/v3/creditcard', { customer_id: c, ...card() }).expect(201)).body.response.id;
    // Each sends the full balance as `amount` (without it, paying a paid invoice is refused).
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.post('/api/v3/transaction?action=pay', {
          customer_id: c,
          amount: '123.45',
          applied_to: [inv],
          paymethods: [{ creditcard_id: cardId }],
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = results.map((r) => r.body.response.id as number);
    const figures = await Promise.all(ids.map(txn));
    const appliedTotal = figures.reduce((sum, f) => sum + Math.round(f.applied * 100), 0);
    expect(appliedTotal).toBe(12345);
    expect(figures.filter((f) => f.applied === 123.45)).toHaveLength(1);
    expect(figures.filter((f) => f.applied === 0 && f.unapplied === 123.45)).toHaveLength(19);
    expect(await invoice(inv)).toMatchObject({
      payments: 123.45,
      balance: 0,
      is_paid: true,
      invoice_status_str: 'closed-paid',
    });
    expect(await customer(c)).toMatchObject({ balance: 0, paid: 2469 });
  });
});
