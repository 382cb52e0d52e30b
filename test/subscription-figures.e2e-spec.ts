import { NightlyJob } from 'src/billing-runs/nightly/nightly-job';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/**
 * How customers and invoices follow subscriptions (issue 19 point 5): mrr/arr, invoices
 * found by package_token, the subscription's method paying its invoice, quotes as nightly activity.
 */
describe('customers and invoices follow subscriptions', () => {
  let t: TestApp;
  let item: number;

  const sub = (customer: number, paycycle: string, base: number, extra: Json = {}) =>
    make.newSubscription(t, customer, [{ item_id: item, tierset: { pricemodel: 'fla', base } }], {
      paycycle,
      ...extra,
    });
  const customer = async (id: number): Promise<Json> =>
    (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    item = await createId(t, '/api/v3/item', { name: 'Service', pricemodel: { pricemodel: 'fla', base: 1 } });
  });
  afterAll(() => t.close());

  it('sums mrr and arr of the active subscriptions (monthly, quarterly, yearly, weekly)', async () => {
    const c = await createId(t, '/api/v3/customer', { company: 'Recurring' });
    await sub(c, 'mon', 99); // 99
    const quarterly = await sub(c, 'qtr', 250); // 250 / 3 = 83.333... -> 83.33
    await sub(c, 'yrl', 1200); // 1200 / 12 = 100
    await sub(c, '1wk', 70); // 70 × 30.4375 / 7 = 304.375 -> 304.38
    const cancelled = await sub(c, 'mon', 50);
    await t.post(`/api/v3/package/${cancelled}?action=cancel`, {}).expect(200);
    // 99 + 83.33 + 100 + 304.38 = 586.71; ARR = 12 × 586.71 = 7040.52.
    expect(await customer(c)).toMatchObject({ mrr: 586.71, arr: 7040.52 });

    // Three seats at 250 on the quarterly one: 750 / 3 = 250 a month instead of 83.33.
    const [line] = (await t.get(`/api/v3/package/${quarterly}`).expect(200)).body.response.line_items as Json[];
    await t
      .post(`/api/v3/package/${quarterly}?action=upgrade`, {
        line_items: [{ line_item_id: line.line_item_id, item_id: item, line_quantity: 3, tierset: { base: 250 } }],
      })
      .expect(200);
    // 99 + 250 + 100 + 304.38 = 753.38; ARR = 12 × 753.38 = 9040.56.
    expect(await customer(c)).toMatchObject({ mrr: 753.38, arr: 9040.56 });
    const other = await createId(t, '/api/v3/customer', { company: 'No subscriptions' });
    expect(await customer(other)).toMatchObject({ mrr: 0, arr: 0 });
  });

  it('finds the invoices of a subscription by package_token', async () => {
    const c = await createId(t, '/api/v3/customer', { company: 'Tokened' });
    const id = await sub(c, 'mon', 10);
    const token = (await t.get(`/api/v3/package/${id}`).expect(200)).body.response.token as string;
    const invoice = await createId(t, '/api/v3/invoice', { customer_id: c, line_items: [{ item_id: item }] });
    await createId(t, '/api/v3/invoice', { customer_id: c, line_items: [{ item_id: item }] });
    await t.dataSource.query(`UPDATE invoice SET package_id = ${id} WHERE invoice_id = ${invoice}`);
    const found = (await t.get(`/api/v3/invoice?where=package_token:EQUALS:${token}`).expect(200)).body
      .response as Json[];
    expect(found.map((i) => [i.invoice_id, i.package_id])).toEqual([[invoice, id]]);
  });

  it("pays a subscription's invoice with the subscription's method first", async () => {
    const c = await createId(t, '/api/v3/customer', { company: 'Paying' });
    const card = (number: string) => ({ customer_id: c, number, expdate_year: 2030, expdate_month: 1 });
    const own = (await t.post('/api/v3/creditcard', card('4242424242424242')).expect(201)).body.response.id as number;
    const subscriptionCard = (await t.post('/api/v3/creditcard', card('5555555555554444')).expect(201)).body.response
      .id as number;
    await t.post(`/api/v3/customer/${c}?action=setPayMethod`, { creditcard_id: own }).expect(200);
    const id = await sub(c, 'mon', 10, { paymethod: 'crd', creditcard_id: subscriptionCard });
    const invoice = await createId(t, '/api/v3/invoice', { customer_id: c, line_items: [{ item_id: item }] });
    await t.dataSource.query(`UPDATE invoice SET package_id = ${id} WHERE invoice_id = ${invoice}`);
    const res = await t.post('/api/v3/transaction?action=pay', { customer_id: c, applied_to: [invoice] }).expect(200);
    expect(res.body.details.creditcard_id).toBe(subscriptionCard);
  });

  it('counts a recent quote as activity for customer/nightly', async () => {
    t.clock.set(new Date('2026-04-20T15:00:00Z'));
    const quoted = await createId(t, '/api/v3/customer', { company: 'Quoted only' });
    const idle = await createId(t, '/api/v3/customer', { company: 'Idle' });
    await createId(t, '/api/v3/quote', { customer_id: quoted, paycycle: 'one', line_items: [{ item_id: item }] });
    const before = (await t.dataSource.getRepository(DomainEvent).find()).length;
    t.clock.set(new Date('2026-04-21T15:00:00Z'));
    await t.app.get(NightlyJob).runDue();
    const nightly = (await t.dataSource.getRepository(DomainEvent).find({ order: { domain_event_id: 'ASC' } }))
      .slice(before)
      .filter((e) => e.context_str === 'customer' && e.event === 'nightly')
      .map((e) => Number(e.context_id));
    expect(nightly).toContain(quoted);
    expect(nightly).not.toContain(idle);
  });
});
