import { createCatalog, createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

/** As the original service's PHP client pays: the card or bank account itself is the body of action pay. */
describe('POST /invoice/<id>?action=pay with the card or bank account as the body', () => {
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

  const card = (number: string) => ({
    number,
    expdate_month: 5,
    expdate_year: 2030,
    name: 'Paula Payer',
    cvv: '123',
    address: '1 Main St',
    postcode: '75001',
  });

  async function openInvoice(): Promise<{ customer: number; invoice: number }> {
    const customer = await createId(t, '/api/v3/customer', { company: 'Card body' });
    const invoice = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: plan }] });
    return { customer, invoice };
  }
  const invoiceOf = async (id: number) => (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response;
  const methodsOf = async (path: string, customer: number) =>
    (await t.get(`/api/v3/${path}?where=customer_id:EQUALS:${customer}`).expect(200)).body.response as Array<
      Record<string, unknown>
    >;

  it('stores the card on the customer and pays the invoice with it', async () => {
    const { customer, invoice } = await openInvoice();
    const res = await t.post(`/api/v3/invoice/${invoice}?action=pay`, card('4242 4242 4242 4242')).expect(200);
    const [stored] = await methodsOf('creditcard', customer);
    expect(stored).toMatchObject({ mask_number: 'xxxx-xxxx-xxxx-4242', name: 'Paula Payer', customer_id: customer });
    expect(res.body.details).toMatchObject({ gateway_status: 1, creditcard_id: stored.creditcard_id });
    expect(await invoiceOf(invoice)).toMatchObject({ invoice_status_str: 'closed-paid', balance: 0 });
    const payment = (await t.get(`/api/v3/transaction/${res.body.response.id}`).expect(200)).body.response;
    expect(payment.applied_to.map((a: { invoice_id: number }) => a.invoice_id)).toEqual([invoice]);
  });

  it('answers a declined card as any decline, the card stored as POST /creditcard would', async () => {
    const { customer, invoice } = await openInvoice();
    const res = await t.post(`/api/v3/invoice/${invoice}?action=pay`, card('4000000000000002')).expect(400);
    expect(res.body).toMatchObject({
      code: 400,
      status: 'Error',
      message: 'This transaction could not be processed: Your card was declined.',
      response: false,
    });
    expect(res.body.details).toMatchObject({ gateway_status: 0 });
    expect(await methodsOf('creditcard', customer)).toHaveLength(1);
    expect(await invoiceOf(invoice)).toMatchObject({ invoice_status_str: 'open-unpaid', declines: 1 });
  });

  it('stores a bank account sent as the body and pays with it (pending)', async () => {
    const { customer, invoice } = await openInvoice();
    const body = { number: '0001-2345-6789', routing: '110 000 000', name: 'Checking', type: 'chec' };
    const res = await t.post(`/api/v3/invoice/${invoice}?action=pay`, body).expect(200);
    const [stored] = await methodsOf('ach', customer);
    expect(stored).toMatchObject({ mask_number: 'xxxxxxxx6789', routing: '110000000' });
    expect(res.body.details).toMatchObject({ gateway_status: 1, ach_id: stored.ach_id });
    const payment = (await t.get(`/api/v3/transaction/${res.body.response.id}`).expect(200)).body.response;
    expect(payment.transaction_status_str).toBe('ok-pending');
  });

  it('refuses a bad card naming the field, storing and charging nothing', async () => {
    const { customer, invoice } = await openInvoice();
    const bad = await t.post(`/api/v3/invoice/${invoice}?action=pay`, card('4242424242424241')).expect(400);
    expect(bad.body.message).toBe('Field "number" is not a valid card number.');
    const extra = await t.post(`/api/v3/invoice/${invoice}?action=pay`, { ...card('4242424242424242'), amount: 5 });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toContain('"amount"');
    expect(await methodsOf('creditcard', customer)).toHaveLength(0);
    expect(await invoiceOf(invoice)).toMatchObject({ invoice_status_str: 'open-unpaid', declines: 0 });
    await t.post('/api/v3/invoice/999999?action=pay', card('4242424242424242')).expect(404);
  });
});
