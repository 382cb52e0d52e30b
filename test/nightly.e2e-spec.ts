import { DataSource } from 'typeorm';
import { NightlyJob } from 'src/billing-runs/nightly/nightly-job';
import { NightlyRun } from 'src/billing-runs/nightly/nightly-run.entity';
import { InvoiceEvents } from 'src/invoices/invoice-events';
import { createId } from './support/catalog-fixtures';
import * as eventLog from './support/domain-events';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

describe('the nightly job', () => {
  let t: TestApp;
  let job: NightlyJob;
  let item: number;
  let free: number;
  let lateCustomer: number;
  let punctualCustomer: number;
  let dormantCustomer: number;
  let overdueInvoice: number;
  let dueTodayInvoice: number;
  let paidInvoice: number;
  let voidInvoice: number;

  const eventsAfter = (afterId: number) => eventLog.eventsAfter(t, afterId);
  const lastEventId = () => eventLog.lastEventId(t);
  const label = eventLog.eventLabel;

  beforeAll(async () => {
    t = await createTestApp();
    job = t.app.get(NightlyJob);
    t.clock.set(new Date('2026-05-01T17:00:00Z'));
    item = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 40 } });
    free = await createId(t, '/api/v3/item', { name: 'Free', pricemodel: { pricemodel: 'fla', base: 0 } });
    lateCustomer = await createId(t, '/api/v3/customer', { company: 'Late', superuser_email: 'ap@late.test' });
    punctualCustomer = await createId(t, '/api/v3/customer', { company: 'Punctual' });
    dormantCustomer = await createId(t, '/api/v3/customer', { company: 'Dormant' });
    // Net 30 from May 1: due May 31, so overdue since June 1 but still stored as unpaid.
    overdueInvoice = await createId(t, '/api/v3/invoice', {
      customer_id: lateCustomer,
      line_items: [{ item_id: item }],
    });
    // Voided before the other is past due: the void leaves the customer's status as it was.
    voidInvoice = await createId(t, '/api/v3/invoice', { customer_id: lateCustomer, line_items: [{ item_id: item }] });
    await t.post(`/api/v3/invoice/${voidInvoice}?action=void`, {}).expect(200);
    // 2026-06-10 12:00 in Chicago.
    t.clock.set(new Date('2026-06-10T17:00:00Z'));
    // Due on receipt today: due today, not overdue until tomorrow.
    dueTodayInvoice = await createId(t, '/api/v3/invoice', {
      customer_id: punctualCustomer,
      terms_id: 1,
      line_items: [{ item_id: item }],
    });
    paidInvoice = await createId(t, '/api/v3/invoice', {
      customer_id: punctualCustomer,
      line_items: [{ item_id: free }],
    });
    // Activity long ago only: no customer/nightly for this one.
    await createId(t, '/api/v3/invoice', {
      customer_id: dormantCustomer,
      date: '2025-11-01',
      terms_id: 1,
      line_items: [{ item_id: free }],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('moves past-due invoices to open-overdue with invoice/status, and announces open invoices and active customers', async () => {
    const before = await lastEventId();
    const summary = await job.runDue();
    expect(summary).toEqual({
      date: '2026-06-10',
      invoicesNowOverdue: 1,
      invoiceNightlyEvents: 2,
      customerStatusChanges: 1,
      customerNightlyEvents: 2,
    });
    const events = await eventsAfter(before);
    expect(events.map(label)).toEqual([
      `invoice/status/${overdueInvoice}`,
      `invoice/nightly/${overdueInvoice}`,
      `invoice/nightly/${dueTodayInvoice}`,
      `customer/status/${lateCustomer}`,
      `customer/nightly/${lateCustomer}`,
      `customer/nightly/${punctualCustomer}`,
    ]);
    const [status, nightly] = events.map((e) => e.data as Json);
    expect(Object.keys(status)).toEqual(['invoice', 'customer', 'user']);
    expect(status.invoice).toMatchObject({
      invoice_id: overdueInvoice,
      invoice_status_str: 'open-overdue',
      invoice_status_state: 'o',
    });
    expect(status.user).toMatchObject({ email: 'ap@late.test' });
    expect(Object.keys(nightly)).toEqual(['invoice', 'customer', 'user']);
    expect(Object.keys(events[3].data)).toEqual(['customer', 'user']);
    expect((events[3].data as Json).customer).toMatchObject({
      customer_status_str: 'active-overdue',
      customer_status_state: 'a',
    });

    const stored = (await t.get(`/api/v3/invoice?where=invoice_status_str:EQUALS:open-overdue`).expect(200)).body
      .response as Json[];
    expect(stored.map((i) => i.invoice_id)).toEqual([overdueInvoice]);
    const late = (await t.get(`/api/v3/customer/${lateCustomer}`).expect(200)).body.response as Json;
    expect(late).toMatchObject({ customer_status_str: 'active-overdue', customer_status_name: 'Over Due' });
    const paid = (await t.get(`/api/v3/invoice/${paidInvoice}`).expect(200)).body.response as Json;
    expect(paid.invoice_status_str).toBe('closed-paid');
  });

  it('runs once per account date, however often it is started', async () => {
    const before = await lastEventId();
    expect(await job.runDue()).toBeNull();
    t.clock.advance(6 * 3600 * 1000); // 18:00 in Chicago, still June 10
    expect(await job.runFor('2026-06-10')).toBeNull();
    expect(await eventsAfter(before)).toEqual([]);
    const run = await t.dataSource.getRepository(NightlyRun).findOneByOrFail({ run_date: '2026-06-10' });
    expect(run.finished_datetime).not.toBeNull();
  });

  it('on the next night marks the invoice due yesterday overdue; a settled customer was stored current at once', async () => {
    const beforeVoid = await lastEventId();
    await t.post(`/api/v3/invoice/${overdueInvoice}?action=void`, {}).expect(200);
    // The void settles the late customer: its status is stored, and announced, with it.
    expect((await eventsAfter(beforeVoid)).map(label)).toContain(`customer/status/${lateCustomer}`);
    t.clock.set(new Date('2026-06-11T05:30:00Z')); // 00:30 in Chicago, June 11
    const before = await lastEventId();
    const summary = await job.runDue();
    expect(summary).toMatchObject({
      date: '2026-06-11',
      invoicesNowOverdue: 1,
      invoiceNightlyEvents: 1,
      customerStatusChanges: 1,
    });
    const labels = (await eventsAfter(before)).map(label);
    expect(labels).toEqual(
      expect.arrayContaining([
        `invoice/status/${dueTodayInvoice}`,
        `invoice/nightly/${dueTodayInvoice}`,
        `customer/status/${punctualCustomer}`,
      ]),
    );
    expect(labels).not.toContain(`customer/status/${lateCustomer}`);
    expect(labels).not.toContain(`invoice/nightly/${overdueInvoice}`);
    expect(labels).not.toContain(`invoice/nightly/${paidInvoice}`);
    expect(labels).not.toContain(`customer/nightly/${dormantCustomer}`);
    const customers = (await t.get('/api/v3/customer?order=customer_id:ASC').expect(200)).body.response as Json[];
    expect(customers.map((c) => [c.customer_id, c.customer_status_str])).toEqual([
      [lateCustomer, 'active-current'],
      [punctualCustomer, 'active-overdue'],
      [dormantCustomer, 'active-current'],
    ]);
  });

  it('counts a recent transaction as activity for customer/nightly', async () => {
    const payer = await createId(t, '/api/v3/customer', { company: 'Payer' });
    await t
      .post('/api/v3/transaction', {
        customer_id: payer,
        transaction_type: 'pay',
        gateway_method: 'check',
        amount: 10,
        gateway_status: 1,
        transaction_date: '2026-06-11',
      })
      .expect(201);
    const before = await lastEventId();
    await job.runFor('2026-06-13');
    const labels = (await eventsAfter(before)).map(label);
    expect(labels).toContain(`customer/nightly/${payer}`);
    expect(labels).not.toContain(`customer/nightly/${dormantCustomer}`);
  });

  it('never runs the same night twice when two workers race for it', async () => {
    const results = await Promise.all([job.runFor('2026-06-12'), job.runFor('2026-06-12')]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    const runs = await t.app.get(DataSource).getRepository(NightlyRun).countBy({ run_date: '2026-06-12' });
    expect(runs).toBe(1);
  });

  it('gives a failed night back so the next tick runs it again', async () => {
    const events = t.app.get(InvoiceEvents);
    const failing = jest.spyOn(events, 'recordMany').mockRejectedValueOnce(new Error('database went away'));
    try {
      await expect(job.runFor('2026-06-14')).rejects.toThrow('database went away');
    } finally {
      failing.mockRestore();
    }
    expect(await t.dataSource.getRepository(NightlyRun).countBy({ run_date: '2026-06-14' })).toBe(0);
    expect(await job.runFor('2026-06-14')).toMatchObject({ date: '2026-06-14', invoiceNightlyEvents: 1 });
  });

  it('takes over a night whose worker died more than an hour ago, not one still running', async () => {
    const runs = t.dataSource.getRepository(NightlyRun);
    const now = t.clock.now().getTime();
    await runs.insert({
      run_date: '2026-06-15',
      started_datetime: new Date(now - 10 * 60_000),
      finished_datetime: null,
    });
    await runs.insert({
      run_date: '2026-06-16',
      started_datetime: new Date(now - 2 * 3600_000),
      finished_datetime: null,
    });
    expect(await job.runFor('2026-06-15')).toBeNull();
    expect(await job.runFor('2026-06-16')).toMatchObject({ date: '2026-06-16' });
    expect((await runs.findOneByOrFail({ run_date: '2026-06-16' })).finished_datetime).not.toBeNull();
  });
});
