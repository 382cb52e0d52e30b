import { NightlyJob } from 'src/billing-runs/nightly/nightly-job';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { CustomersService } from 'src/customers/customers.service';
import { UnitOfWork } from 'src/database/unit-of-work';
import { createId } from './support/catalog-fixtures';
import { eventLabel, eventsAfter, lastEventId } from './support/domain-events';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/**
 * Statuses derived from other objects agree at every read (issue 21 point 7), and the
 * nightly job stores them with one status event per change (issue 20 point 6). The clock
 * is moved by hand: nothing runs until the test runs the nightly job itself.
 */
describe('statuses that follow other objects', () => {
  let t: TestApp;
  let job: NightlyJob;
  let item: number;
  let dormant: number;
  let late: number;
  let lateInvoice: number;

  const customer = async (id: number): Promise<Json> =>
    (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;
  const customerIds = async (query: string): Promise<number[]> =>
    ((await t.get(`/api/v3/customer?${query}`).expect(200)).body.response as Json[]).map((c) => c.customer_id);
  /** Runs the nightly job as of `datetime` (UTC): the labels of the events it recorded. */
  async function nightAt(datetime: string): Promise<string[]> {
    t.clock.set(new Date(datetime));
    const before = await lastEventId(t);
    expect(await job.runDue()).not.toBeNull();
    return (await eventsAfter(t, before)).map(eventLabel);
  }
  const statusEvents = (labels: string[], context: string, id: number) =>
    labels.filter((l) => l === `${context}/status/${id}`);

  beforeAll(async () => {
    t = await createTestApp();
    job = t.app.get(NightlyJob);
    // 2026-04-01 10:00 in Chicago.
    t.clock.set(new Date('2026-04-01T15:00:00Z'));
    item = await make.newItem(t);
    dormant = await make.newCustomer(t, { company: 'Dormant' });
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('reads a customer active-overdue as soon as an invoice is past due, before any nightly run', async () => {
    late = await make.newCustomer(t, { company: 'Late' });
    const punctual = await make.newCustomer(t, { company: 'Punctual' });
    // Net 30: due 2026-05-01 and 2026-05-15.
    lateInvoice = await make.newInvoice(t, late, item, { date: '2026-04-01', rate: '40.00' });
    await make.newInvoice(t, punctual, item, { date: '2026-04-15', rate: '40.00' });
    expect(await customer(late)).toMatchObject({ customer_status_str: 'active-current' });

    // 31 days on, mid-morning: the invoice is past due; the nightly job has not run.
    t.clock.set(new Date('2026-05-02T15:00:00Z'));
    const before = await lastEventId(t);
    expect((await t.get(`/api/v3/invoice/${lateInvoice}`).expect(200)).body.response).toMatchObject({
      invoice_status_str: 'open-overdue',
    });
    expect(await customer(late)).toMatchObject({
      customer_status_id: 2,
      customer_status_str: 'active-overdue',
      customer_status_name: 'Over Due',
      customer_status_state: 'a',
    });
    expect(await customerIds('where=customer_status_str:EQUALS:active-overdue')).toEqual([late]);
    expect(await customerIds('where=customer_status_str:NOTEQUALS:active-overdue')).toEqual([dormant, punctual]);
    expect(await customerIds('where=customer_status_state:EQUALS:a&order=customer_status_str:DESC')).toEqual([
      late,
      dormant,
      punctual,
    ]);
    expect(
      (await t.get('/api/v3/customer/_count?where=customer_status_str:EQUALS:active-overdue').expect(200)).body
        .response,
    ).toBe(1);
    // Reading announces nothing.
    expect(await eventsAfter(t, before)).toEqual([]);

    // That night the job stores both statuses and announces each change once.
    const night = await nightAt('2026-05-03T05:30:00Z');
    expect(statusEvents(night, 'invoice', lateInvoice)).toHaveLength(1);
    expect(statusEvents(night, 'customer', late)).toHaveLength(1);
    expect(await nightAt('2026-05-04T05:30:00Z')).not.toContain(`customer/status/${late}`);
  });

  it('stores the customer current again in the moment a payment settles it, announcing that once', async () => {
    t.clock.set(new Date('2026-05-04T15:00:00Z'));
    const before = await lastEventId(t);
    await t
      .post('/api/v3/transaction', {
        customer_id: late,
        transaction_type: 'pay',
        gateway_method: 'check',
        amount: '40.00',
        applied_to: [{ invoice_id: lateInvoice }],
      })
      .expect(201);
    const paid = (await eventsAfter(t, before)).filter((e) => e.event === 'status');
    expect(paid.map(eventLabel)).toEqual([`invoice/status/${lateInvoice}`, `customer/status/${late}`]);
    expect((paid[1].data as Json).customer).toMatchObject({ customer_status_str: 'active-current', balance: 0 });
    expect(await customer(late)).toMatchObject({ customer_status_str: 'active-current', balance: 0 });
    expect(await customerIds('where=customer_status_str:EQUALS:active-overdue')).toEqual([]);
    // Nothing is left for the nightly job to store or announce.
    expect(await nightAt('2026-05-05T05:30:00Z')).not.toContain(`customer/status/${late}`);
  });

  it('makes a customer without activity for 90 days inactive-activity, and active again on new activity', async () => {
    // 90 days after its creation (April 1) the customer without anything is still new.
    expect(statusEvents(await nightAt('2026-06-30T05:30:00Z'), 'customer', dormant)).toEqual([]);
    const night = await nightAt('2026-07-01T05:30:00Z');
    expect(statusEvents(night, 'customer', dormant)).toHaveLength(1);
    expect(night).not.toContain(`customer/nightly/${dormant}`);
    // The others had invoices or a payment within the 90 days.
    expect(statusEvents(night, 'customer', late)).toEqual([]);
    expect(await customer(dormant)).toMatchObject({
      customer_status_id: 4,
      customer_status_str: 'inactive-activity',
      customer_status_name: 'Inactive (No Activity)',
      customer_status_state: 'i',
    });
    expect(await customerIds('where=customer_status_str:EQUALS:inactive-activity')).toEqual([dormant]);
    expect(await customerIds('where=customer_status_state:EQUALS:i')).toEqual([dormant]);
    expect(statusEvents(await nightAt('2026-07-02T05:30:00Z'), 'customer', dormant)).toEqual([]);

    // New activity shows at once; the nightly job stores and announces it.
    await make.newInvoice(t, dormant, item, { date: '2026-07-02', rate: '10.00' });
    expect(await customer(dormant)).toMatchObject({
      customer_status_str: 'active-current',
      customer_status_state: 'a',
    });
    expect(await customerIds('where=customer_status_str:EQUALS:inactive-activity')).toEqual([]);
    const back = await nightAt('2026-07-03T05:30:00Z');
    expect(statusEvents(back, 'customer', dormant)).toHaveLength(1);
    expect(back).toContain(`customer/nightly/${dormant}`);
    expect(await customer(dormant)).toMatchObject({ customer_status_str: 'active-current' });
    expect(statusEvents(await nightAt('2026-07-04T05:30:00Z'), 'customer', dormant)).toEqual([]);
  });

  it('reads a subscription expired once every line reached its expire_recurs; the nightly job stores it, announcing it once', async () => {
    t.clock.set(new Date('2026-07-04T15:00:00Z'));
    const sub = await createId(t, '/api/v3/package', {
      customer_id: late,
      line_items: [
        { item_id: item, expire_recurs: 1 },
        { item_id: item, expire_recurs: 2 },
      ],
    });
    const bill = () => t.post(`/api/v3/package/${sub}?action=invoice`, {});
    const read = async (): Promise<Json> => (await t.get(`/api/v3/package/${sub}`).expect(200)).body.response;

    await bill().expect(200);
    // One line is over, the other still has an invoice to go.
    expect(statusEvents(await nightAt('2026-07-05T05:30:00Z'), 'package', sub)).toEqual([]);
    expect(await read()).toMatchObject({ package_status_str: 'active-current' });

    t.clock.set(new Date('2026-07-05T15:00:00Z'));
    await bill().expect(200);
    // Every line is over: it reads expired at once, and the nightly job stores and announces it.
    expect(await read()).toMatchObject({ package_status_str: 'expired-expired', package_status_state: 'e' });
    const expired = await t.get('/api/v3/package?where=package_status_str:EQUALS:expired-expired').expect(200);
    expect((expired.body.response as Json[]).map((p) => p.package_id)).toEqual([sub]);
    const night = await nightAt('2026-07-06T05:30:00Z');
    expect(statusEvents(night, 'package', sub)).toHaveLength(1);
    expect(await read()).toMatchObject({
      package_status_str: 'expired-expired',
      package_status_state: 'e',
      // Nothing left to bill.
      next_invoice_datetime: '',
    });
    expect(statusEvents(await nightAt('2026-07-07T05:30:00Z'), 'package', sub)).toEqual([]);
    await bill().expect(400);
  });

  it('stores and announces a status change once when two writers race for it', async () => {
    const raced = await make.newCustomer(t, { company: 'Raced' });
    const customers = t.app.get(CustomersService);
    const uow = t.app.get(UnitOfWork);
    const before = await lastEventId(t);
    const store = () =>
      uow.run((tx) => customers.storeStatus(tx, SYSTEM_CONTEXT, raced, 'active-current', 'inactive-manual'));
    expect((await Promise.all([store(), store()])).sort()).toEqual([false, true]);
    expect((await eventsAfter(t, before)).map(eventLabel)).toEqual([`customer/status/${raced}`]);
    expect(await customer(raced)).toMatchObject({ customer_status_str: 'inactive-manual', customer_status_state: 'i' });
  });
});
