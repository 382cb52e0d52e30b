import { createCatalog, createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

const CARD = make.newCard();

/** No transaction's applied_to may name an invoice that answers 404 (DESIGN §6 "Invoices"). */
describe('invoice deletion and voiding leave no dangling money', () => {
  let t: TestApp;
  let plan: number;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
    plan = (await createCatalog(t)).plan;
  });
  afterAll(async () => {
    await t.close();
  });

  async function paidThenRefunded(): Promise<{ invoice: number; payment: number; refund: number }> {
    const customer = await createId(t, '/api/v3/customer', { company: 'Refunded' });
    const invoice = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: plan }] });
    const pay = await t
      .post('/api/v3/transaction?action=pay', { customer_id: customer, applied_to: [invoice], paymethods: [CARD] })
      .expect(200);
    const payment = pay.body.response.id as number;
    const refund = (await t.post(`/api/v3/transaction/${payment}?action=refund`).expect(200)).body.response
      .id as number;
    return { invoice, payment, refund: Number(refund) };
  }

  const appliedInvoices = async (transaction: number) =>
    (
      (await t.get(`/api/v3/transaction/${transaction}`).expect(200)).body.response.applied_to as {
        invoice_id: number;
      }[]
    ).map((a) => a.invoice_id);

  it('refuses to delete an invoice whose payment was fully refunded, saying why', async () => {
    const { invoice, payment } = await paidThenRefunded();
    expect((await t.get(`/api/v3/invoice/${invoice}`).expect(200)).body.response.balance).toBeGreaterThan(0);
    const res = await t.del(`/api/v3/invoice/${invoice}`).expect(400);
    expect(res.body.message).toMatch(
      new RegExp(
        `^This invoice cannot be deleted: transaction\\(s\\) ${payment}(, \\d+)? name it in applied_to; void it instead\\.$`,
      ),
    );
    expect(await appliedInvoices(payment)).toEqual([invoice]);
    await t.get(`/api/v3/invoice/${invoice}`).expect(200);
  });

  it('voids such an invoice instead: it stays readable, so applied_to still names an invoice', async () => {
    const { invoice, payment } = await paidThenRefunded();
    await t.post(`/api/v3/invoice/${invoice}?action=void`).expect(200);
    const read = (await t.get(`/api/v3/invoice/${invoice}`).expect(200)).body.response;
    expect(read).toMatchObject({ invoice_status_str: 'closed-void', is_void: true });
    for (const id of await appliedInvoices(payment)) await t.get(`/api/v3/invoice/${id}`).expect(200);
    await t.del(`/api/v3/invoice/${invoice}`).expect(400);
  });

  it('refuses to delete an invoice a declined attempt names, and deletes one nothing names', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Declined' });
    const invoice = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: plan }] });
    const declined = await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: customer,
        applied_to: [invoice],
        paymethods: [{ ...CARD, number: '4000000000000002' }],
      })
      .expect(400);
    const attempt = declined.body.details.transaction_id as number;
    // A declined attempt is kept with the invoice it was for (it counts in the invoice's `declines`).
    expect(await appliedInvoices(attempt)).toEqual([invoice]);
    const res = await t.del(`/api/v3/invoice/${invoice}`).expect(400);
    expect(res.body.message).toBe(
      `This invoice cannot be deleted: transaction(s) ${attempt} name it in applied_to; void it instead.`,
    );
    const untouched = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: plan }] });
    expect((await t.del(`/api/v3/invoice/${untouched}`).expect(200)).body.response).toBe(true);
    await t.get(`/api/v3/invoice/${untouched}`).expect(404);
  });
});
