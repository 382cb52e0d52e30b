import { NightlyJob } from 'src/billing-runs/nightly/nightly-job';
import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { startReceiver, verifyStandardWebhook, WebhookReceiver } from './support/webhook-receiver';
import { Json } from './support/json';

/**
 * The invoice and nightly events as a receiver sees them: each arrives signed, with the
 * data keys of SPEC "Events" and the objects in their wire shape.
 */
describe('webhooks for invoice and nightly events', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let secret: string;
  let customer: number;
  let item: number;

  const deliverAll = async (): Promise<void> => {
    await t.drainJobs();
    await t.app.get(WebhookSweeper).sweep();
    await t.drainJobs();
  };
  const received = (event: string) =>
    receiver.received.filter((r) => `${r.body.context_str}.${r.body.event}` === event).map((r) => r.body);

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    receiver = await startReceiver();
    t.clock.set(new Date('2026-04-01T15:00:00Z'));
    secret = (await t.post('/api/v3/_resthook', { target_url: receiver.url, event: '*' }).expect(201)).body.response
      .secret as string;
    item = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 25 } });
    customer = await createId(t, '/api/v3/customer', { company: 'Hooked', superuser_email: 'ap@hooked.test' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers invoice/insert with the invoice and its line_items, and invoice/void', async () => {
    const id = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: item }] });
    await t.post(`/api/v3/invoice/${id}?action=void`, {}).expect(200);
    await deliverAll();
    const [insert] = received('invoice.insert');
    expect(insert).toMatchObject({ context_str: 'invoice', context_id: id, event: 'insert' });
    expect(Object.keys(insert.data).sort()).toEqual(['customer', 'invoice']);
    expect((insert.data as Json).invoice).toMatchObject({ invoice_id: id, total: 25 });
    expect((insert.data as Json).invoice.line_items).toHaveLength(1);
    const [voided] = received('invoice.void');
    expect(Object.keys(voided.data).sort()).toEqual(['customer', 'invoice']);
    expect((voided.data as Json).invoice).toMatchObject({
      invoice_id: id,
      invoice_status_str: 'closed-void',
      is_void: true,
    });
    expect(receiver.received.every((r) => verifyStandardWebhook(secret, r))).toBe(true);
  });

  it('delivers invoice/status, invoice/nightly, customer/status and customer/nightly from the nightly job', async () => {
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      terms_id: 1,
      line_items: [{ item_id: item }],
    });
    t.clock.set(new Date('2026-04-02T15:00:00Z'));
    await t.app.get(NightlyJob).runDue();
    await deliverAll();

    const status = received('invoice.status').find((b) => b.context_id === id)!;
    expect(Object.keys(status.data).sort()).toEqual(['customer', 'invoice', 'user']);
    expect((status.data as Json).invoice).toMatchObject({
      invoice_status_str: 'open-overdue',
      invoice_status_name: 'Overdue',
    });
    expect((status.data as Json).user).toMatchObject({ email: 'ap@hooked.test' });
    const nightly = received('invoice.nightly');
    expect(nightly.map((b) => b.context_id)).toEqual([id]);
    expect(Object.keys(nightly[0].data).sort()).toEqual(['customer', 'invoice', 'user']);
    const customerStatus = received('customer.status');
    expect(customerStatus).toHaveLength(1);
    expect(Object.keys(customerStatus[0].data).sort()).toEqual(['customer', 'user']);
    expect((customerStatus[0].data as Json).customer).toMatchObject({
      customer_id: customer,
      customer_status_str: 'active-overdue',
    });
    const customerNightly = received('customer.nightly');
    expect(customerNightly.map((b) => b.context_id)).toEqual([customer]);
    expect(Object.keys(customerNightly[0].data).sort()).toEqual(['customer', 'user']);
  });
});
