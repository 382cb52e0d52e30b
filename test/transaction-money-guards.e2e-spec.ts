import { UnitOfWork } from 'src/database/unit-of-work';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/**
 * Status changes and re-applications that would leave an invoice holding more (or less)
 * money than was really paid on it: refunds orphaned by a void, a voided refund
 * over-paying a re-paid invoice, applications moved away from the refunded invoice.
 */
describe('transaction money guards', () => {
  let t: TestApp;
  let item: number;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-19T15:00:00Z'));
    item = await make.newItem(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const newCustomer = () => make.newCustomer(t, { superuser_email: 'ap@payer.test' });
  const newInvoice = (customerId: number, rate = '100.00') => make.newInvoice(t, customerId, item, { rate });
  const invoice = async (id: number): Promise<Json> => (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response;
  const txn = async (id: number): Promise<Json> => (await t.get(`/api/v3/transaction/${id}`).expect(200)).body.response;
  const card = make.newCard();
  async function pay(customerId: number, invoiceId: number): Promise<number> {
    const body = { customer_id: customerId, applied_to: [invoiceId], paymethods: [card] };
    return (await t.post('/api/v3/transaction?action=pay', body).expect(200)).body.response.id;
  }
  async function refund(id: number, amount: number): Promise<number> {
    return Number((await t.post(`/api/v3/transaction/${id}?action=refund`, { amount }).expect(200)).body.response.id);
  }

  it.each(['void', 'decline'])(
    'action %s refuses a payment with a live refund (it would be orphaned)',
    async (action) => {
      const c = await newCustomer();
      const inv = await newInvoice(c);
      const id = await pay(c, inv);
      await refund(id, 40);
      const res = await t.post(`/api/v3/transaction/${id}?action=${action}`).expect(400);
      expect(res.body.message).toBe('This payment has refunds: void them first.');
      expect(await txn(id)).toMatchObject({ transaction_status_str: 'ok-successful' });
      expect(await invoice(inv)).toMatchObject({ payments: 100, refunds: 40, balance: 40 });
    },
  );

  it('once its refunds are void, the payment can be voided and the invoice is owed in full', async () => {
    const c = await newCustomer();
    const inv = await newInvoice(c);
    const id = await pay(c, inv);
    const r = await refund(id, 40);
    await t.post(`/api/v3/transaction/${r}?action=void`).expect(200);
    await t.post(`/api/v3/transaction/${id}?action=void`).expect(200);
    expect(await invoice(inv)).toMatchObject({ payments: 0, refunds: 0, balance: 100 });
  });
  it('a refund cannot be voided once its invoice was paid again (the invoice would be paid twice)', async () => {
    const c = await newCustomer();
    const inv = await newInvoice(c);
    const first = await pay(c, inv);
    const r = await refund(first, 100);
    await pay(c, inv);
    const res = await t.post(`/api/v3/transaction/${r}?action=void`).expect(400);
    expect(res.body.message).toBe(`This refund cannot be voided: invoice ${inv} would be paid more than its total.`);
    const declined = await t.post(`/api/v3/transaction/${r}?action=decline`).expect(400);
    expect(declined.body.message).toBe(
      `This refund cannot be declined: invoice ${inv} would be paid more than its total.`,
    );
    expect(await invoice(inv)).toMatchObject({ payments: 200, refunds: 100, balance: 0 });
    // With the invoice still owing what was refunded, the refund can be voided.
    const inv2 = await newInvoice(c);
    const p2 = await pay(c, inv2);
    const r2 = await refund(p2, 30);
    await t.post(`/api/v3/transaction/${r2}?action=void`).expect(200);
    expect(await invoice(inv2)).toMatchObject({ payments: 100, refunds: 0, balance: 0 });
  });
  it('changeAppliedAmounts keeps on each invoice at least what refunds took back from it', async () => {
    const c = await newCustomer();
    const a = await newInvoice(c);
    const b = await newInvoice(c);
    const id = await pay(c, a);
    await refund(id, 40);
    const res = await t
      .post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, { applied_to: [{ invoice_id: b, applied: 100 }] })
      .expect(400);
    expect(res.body.message).toBe(
      `Field "applied_to": invoice ${a} must keep at least 40.00 of this payment (refunded from it).`,
    );
    expect(await invoice(a)).toMatchObject({ payments: 100, refunds: 40, balance: 40 });
    expect(await invoice(b)).toMatchObject({ payments: 0, balance: 100 });
    // Keeping what was refunded on the invoice, the rest may move.
    await t
      .post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, {
        applied_to: [
          { invoice_id: a, applied: 40 },
          { invoice_id: b, applied: 60 },
        ],
      })
      .expect(200);
    expect(await invoice(a)).toMatchObject({ payments: 40, refunds: 40, balance: 100 });
    expect(await invoice(b)).toMatchObject({ payments: 60, balance: 40 });
  });
  it('concurrent use_customer_balance on two invoices spends the credit once', async () => {
    const c = await newCustomer();
    const a = await newInvoice(c);
    const b = await newInvoice(c);
    const body = { customer_id: c, transaction_type: 'cre', gateway_method: 'credit', amount: '100.00' };
    const credit = (await t.post('/api/v3/transaction', body).expect(201)).body.response.id;
    const results = await Promise.all(
      [a, b, a, b].map((id) => t.post(`/api/v3/invoice/${id}?action=pay`, { use_customer_balance: true })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400, 400]);
    expect(await txn(credit)).toMatchObject({ applied: 100, unapplied: 0 });
    const [ia, ib] = [await invoice(a), await invoice(b)];
    expect(ia.credits + ib.credits).toBe(100);
  });
  it('a refund racing a void re-checks the payment under its lock', async () => {
    const c = await newCustomer();
    const inv = await newInvoice(c);
    const id = await pay(c, inv);
    const uow = t.app.get(UnitOfWork);
    const run = uow.run.bind(uow);
    // The void commits after the refund's checks, before its writing transaction.
    const spy = jest.spyOn(uow, 'run').mockImplementationOnce(async (work) => {
      await t.post(`/api/v3/transaction/${id}?action=void`).expect(200);
      return run(work);
    });
    try {
      const res = await t.post(`/api/v3/transaction/${id}?action=refund`, { amount: 40 }).expect(400);
      expect(res.body.message).toBe(
        'Only a successful payment can be refunded (a pending bank payment can be voided).',
      );
    } finally {
      spy.mockRestore();
    }
    expect(await txn(id)).toMatchObject({ transaction_status_str: 'void-voided', refunds: [] });
    expect(await invoice(inv)).toMatchObject({ payments: 0, refunds: 0, balance: 100 });
  });
  it('changeAppliedAmounts racing a void re-checks the transaction under its lock', async () => {
    const c = await newCustomer();
    const inv = await newInvoice(c);
    const body = { customer_id: c, transaction_type: 'cre', gateway_method: 'credit', amount: '50.00' };
    const credit = (await t.post('/api/v3/transaction', body).expect(201)).body.response.id;
    const uow = t.app.get(UnitOfWork);
    const run = uow.run.bind(uow);
    const spy = jest.spyOn(uow, 'run').mockImplementationOnce(async (work) => {
      await t.post(`/api/v3/transaction/${credit}?action=void`).expect(200);
      return run(work);
    });
    try {
      const res = await t
        .post(`/api/v3/transaction/${credit}?action=changeAppliedAmounts`, { applied_to: [inv] })
        .expect(400);
      expect(res.body.message).toBe('Applied amounts can be changed only on a successful or pending transaction.');
    } finally {
      spy.mockRestore();
    }
    expect(await txn(credit)).toMatchObject({ transaction_status_str: 'void-voided', applied_to: [] });
  });
  it('refunds, re-applications and a void at once never deadlock into a 500', async () => {
    const c = await newCustomer();
    const inv = await newInvoice(c);
    const id = await pay(c, inv);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => t.post(`/api/v3/transaction/${id}?action=refund`, { amount: 5 })),
      ...Array.from({ length: 4 }, () =>
        t.post(`/api/v3/transaction/${id}?action=changeAppliedAmounts`, { applied_to: [inv] }),
      ),
      t.post(`/api/v3/transaction/${id}?action=decline`, {}),
    ]);
    expect(results.filter((r) => r.status !== 200 && r.status !== 400).map((r) => r.body.message)).toEqual([]);
  });
});
