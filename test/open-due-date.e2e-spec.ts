import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/**
 * Issue 42 item 2: customers and subscriptions store the earliest due date of their open
 * invoices (`open_due_date`), kept by every invoice write in its transaction, and a read
 * compares it with the account's today. Here the stored column after each kind of write,
 * and the status turning at the account's midnight with no job run. The clock is moved by
 * hand (account zone America/Chicago, UTC−5 in May).
 */
describe('stored earliest open due date', () => {
  let t: TestApp;
  let item: number;

  const stored = async (table: 'customer', id: number): Promise<string | null> => {
    const [row] = await t.dataSource.query<Array<{ d: string | null }>>(
      `SELECT CAST(open_due_date AS CHAR) AS d FROM ${table} WHERE customer_id = ?`,
      [id],
    );
    return row.d;
  };
  const status = async (id: number): Promise<string> =>
    ((await t.get(`/api/v3/customer/${id}`).expect(200)).body.response as Json).customer_status_str as string;
  const overdueIds = async (): Promise<number[]> =>
    (
      (await t.get('/api/v3/customer?where=customer_status_str:EQUALS:active-overdue').expect(200)).body
        .response as Json[]
    ).map((c) => c.customer_id as number);
  const pay = (customer: number, invoice: number, amount: string, type = 'pay', method = 'check') =>
    t
      .post('/api/v3/transaction', {
        customer_id: customer,
        transaction_type: type,
        gateway_method: method,
        amount,
        applied_to: [{ invoice_id: invoice }],
      })
      .expect(201);

  beforeAll(async () => {
    t = await createTestApp();
    // 2026-04-01 10:00 in Chicago.
    t.clock.set(new Date('2026-04-01T15:00:00Z'));
    item = await make.newItem(t);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('follows issue, payment, void, delete and credit in the writing transaction', async () => {
    const customer = await make.newCustomer(t, { company: 'Four invoices' });
    expect(await stored('customer', customer)).toBeNull();
    // Net 30 (the default terms): due 05-01, 05-10, 05-20, 05-25.
    const first = await make.newInvoice(t, customer, item, { date: '2026-04-01', rate: '40.00' });
    const second = await make.newInvoice(t, customer, item, { date: '2026-04-10', rate: '40.00' });
    const third = await make.newInvoice(t, customer, item, { date: '2026-04-20', rate: '40.00' });
    const fourth = await make.newInvoice(t, customer, item, { date: '2026-04-25', rate: '40.00' });
    expect(await stored('customer', customer)).toBe('2026-05-01');

    // A part payment leaves the first invoice open: still its due date.
    await pay(customer, first, '10.00');
    expect(await stored('customer', customer)).toBe('2026-05-01');
    // 10.00 + 30.00 = 40.00: paid, so the next open one is the earliest.
    await pay(customer, first, '30.00');
    expect(await stored('customer', customer)).toBe('2026-05-10');

    await t.post(`/api/v3/invoice/${second}?action=void`, {}).expect(200);
    expect(await stored('customer', customer)).toBe('2026-05-20');

    await t.del(`/api/v3/invoice/${third}`).expect(200);
    expect(await stored('customer', customer)).toBe('2026-05-25');

    // A 40.00 credit memo applied in full closes the last one: nothing open.
    await pay(customer, fourth, '40.00', 'cre', 'credit');
    expect(await stored('customer', customer)).toBeNull();
    t.clock.set(new Date('2026-06-01T15:00:00Z'));
    expect(await status(customer)).toBe('active-current');
  });

  it('turns the status at the account’s midnight, with no job and no write', async () => {
    t.clock.set(new Date('2026-04-01T15:00:00Z'));
    const customer = await make.newCustomer(t, { company: 'Due May 1' });
    await make.newInvoice(t, customer, item, { date: '2026-04-01', rate: '40.00' });
    expect(await stored('customer', customer)).toBe('2026-05-01');

    // 2026-05-01 23:59:59 in Chicago: due today, not yet past due.
    t.clock.set(new Date('2026-05-02T04:59:59Z'));
    expect(await status(customer)).toBe('active-current');
    expect(await overdueIds()).not.toContain(customer);
    // One second later it is May 2 there: overdue, though nothing was written.
    t.clock.set(new Date('2026-05-02T05:00:00Z'));
    expect(await status(customer)).toBe('active-overdue');
    expect(await overdueIds()).toContain(customer);
    expect(await stored('customer', customer)).toBe('2026-05-01');
  });
});
