import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { UnitOfWork } from 'src/database/unit-of-work';
import { InvoiceApplied, InvoiceExtensions } from 'src/invoices/invoice-extensions';
import { InvoiceStatusUpdater } from 'src/invoices/invoice-status-updater';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { DueWorkScheduler } from 'src/core/schedule/due-work-scheduler';
import { Catalog, createCatalog, createId, rowCount } from './support/catalog-fixtures';
import * as make from './support/factories';
import { spyOnStatements } from './support/statement-count';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

describe('invoice actions, events and the payments extension point', () => {
  let t: TestApp;
  let c: Catalog;
  let customer: number;
  /** What the fake payments source says is applied, by invoice id. */
  const applied = new Map<number, Partial<InvoiceApplied>>();

  beforeAll(async () => {
    t = await createTestApp({ DATETIME_FORMAT: 'sql' });
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    // Stands in for the payments module: one answer per page of invoices.
    t.app.get(InvoiceExtensions).addAppliedSource({
      appliedFor: (_m: EntityManager, ids: number[]) =>
        Promise.resolve(new Map(ids.filter((id) => applied.has(id)).map((id) => [id, applied.get(id)!]))),
    });
    c = await createCatalog(t);
    customer = await createId(t, '/api/v3/customer', {
      company: 'Acme',
      superuser_email: 'ap@acme.test',
      superuser_first_name: 'Ann',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const newInvoice = (lines: Json[] = [{ item_id: c.plan }]) => make.newInvoiceOf(t, customer, lines);
  const invoice = async (id: number): Promise<Json> =>
    (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
  const eventsOf = async (id: number): Promise<DomainEvent[]> =>
    t.dataSource.getRepository(DomainEvent).find({
      where: { context_str: 'invoice', context_id: String(id) },
      order: { domain_event_id: 'ASC' },
    });
  const refresh = (ids: number[]) =>
    t.app.get(UnitOfWork).run((tx) => t.app.get(InvoiceStatusUpdater).refresh(tx, SYSTEM_CONTEXT, ids));

  it('records invoice/insert with the invoice, its line_items and the customer', async () => {
    const id = await newInvoice();
    const events = await eventsOf(id);
    expect(events.map((e) => e.event)).toEqual(['insert']);
    const data = events[0].data as Json;
    expect(Object.keys(data)).toEqual(['invoice', 'customer']);
    expect(data.invoice).toMatchObject({ invoice_id: id, total: 104.94 });
    expect(data.invoice.line_items).toHaveLength(1);
    expect(data.customer).toMatchObject({ customer_id: customer, company: 'Acme' });
  });

  it('void: balance 0, closed-void, void_datetime; events void and status; then refuses changes', async () => {
    const id = await newInvoice();
    for (const path of [`/api/v3/invoice/${id}?action=void`]) {
      const res = await t.post(path, {}).expect(200);
      expect(res.body).toEqual({ code: 200, status: 'OK', message: '', details: {}, response: true });
    }
    expect(await invoice(id)).toMatchObject({
      invoice_status_str: 'closed-void',
      invoice_status_state: 'c',
      invoice_status_name: 'Void',
      is_void: true,
      is_paid: true,
      balance: 0,
      total: 104.94,
      void_datetime: '2026-03-10 12:00:00',
    });
    const events = await eventsOf(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'status', 'void']);
    expect(Object.keys(events[1].data)).toEqual(['invoice', 'customer', 'user']);
    expect((events[1].data as Json).invoice.invoice_status_str).toBe('closed-void');
    expect((events[1].data as Json).user).toMatchObject({ email: 'ap@acme.test' });
    expect(Object.keys(events[2].data)).toEqual(['invoice', 'customer']);

    const again = await t.post(`/api/v3/invoice/${id}/_action/void`).expect(400);
    expect(again.body.message).toBe('This invoice is void (closed-void) and cannot be voided.');
    const put = await t.put(`/api/v3/invoice/${id}`, { memo: 'x' }).expect(400);
    expect(put.body.message).toBe('This invoice is void (closed-void) and cannot be changed.');
    const coll = await t.post(`/api/v3/invoice/${id}?action=collections`).expect(400);
    expect(coll.body.message).toBe('This invoice is void (closed-void) and cannot be sent to collections.');
    // A void invoice no longer counts toward the customer's total.
    expect((await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response.total).toBe(104.94);
  });

  it('email: mails the customer contacts through MailService and records it in sent; print too', async () => {
    const id = await newInvoice();
    await t.post(`/api/v3/invoice/${id}?action=email`, {}).expect(200);
    await t
      .post(`/api/v3/invoice/${id}/_action/email`, { email: 'a@x.test, b@x.test', subject: 'Your bill' })
      .expect(200);
    await t.post(`/api/v3/invoice/${id}?action=print`).expect(200);
    await t.post(`/api/v3/invoice/${id}?action=email&_flag_emails=0`, {}).expect(200);
    const mails = await t.dataSource.getRepository(MailMessage).find({
      where: { context_str: 'invoice', context_id: id },
      order: { mail_message_id: 'ASC' },
    });
    expect(mails.map((m) => [m.to_addr, m.subject])).toEqual([
      ['ap@acme.test', `Invoice #${id}`],
      ['a@x.test, b@x.test', 'Your bill'],
    ]);
    expect(mails[0].body).toContain('Total: $ 104.94');
    const sent = (await invoice(id)).sent as Json[];
    expect(sent.map((s) => [s.method, s.email, s.mail_message_id])).toEqual([
      ['email', 'ap@acme.test', mails[0].mail_message_id],
      ['email', 'a@x.test, b@x.test', mails[1].mail_message_id],
      ['print', null, null],
    ]);
    expect(sent[0].sent_datetime).toBe('2026-03-10 12:00:00');

    const bad = await t.post(`/api/v3/invoice/${id}?action=email`, { email: 'not-an-address' }).expect(400);
    expect(bad.body.message).toBe('Invalid field "email": must be e-mail addresses separated by commas.');
    const nobody = await createId(t, '/api/v3/customer', { company: 'No contacts' });
    const lonely = await createId(t, '/api/v3/invoice', { customer_id: nobody, line_items: [{ item_id: c.plan }] });
    const none = await t.post(`/api/v3/invoice/${lonely}?action=email`).expect(400);
    expect(none.body.message).toBe('The customer has no contact with an e-mail address: send "email".');
    const unknown = await t.post(`/api/v3/invoice/${id}?action=fly`).expect(400);
    expect(unknown.body.message).toBe(
      'Unknown action "fly" for invoice. Available actions: void, email, print, collections, pay.',
    );
    await t.post('/api/v3/invoice/99999?action=print').expect(404);
  });

  it('collections: open-collections with an invoice/status event', async () => {
    const id = await newInvoice();
    await t.post(`/api/v3/invoice/${id}?action=collections`).expect(200);
    expect(await invoice(id)).toMatchObject({
      invoice_status_str: 'open-collections',
      invoice_status_name: 'Collections',
    });
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['insert', 'status']);
    const listed = (await t.get('/api/v3/invoice?where=invoice_status_str:EQUALS:open-collections').expect(200)).body
      .response;
    expect(listed.map((i: Json) => i.invoice_id)).toEqual([id]);

    // Collections ends with full payment; a later refund reopens it as unpaid, not in collections.
    applied.set(id, { payments: new Decimal('104.94') });
    expect(await refresh([id])).toEqual([id]);
    expect((await invoice(id)).invoice_status_str).toBe('closed-paid');
    applied.set(id, { payments: new Decimal('104.94'), refunds: new Decimal('4.94') });
    expect(await refresh([id])).toEqual([id]);
    expect(await invoice(id)).toMatchObject({ invoice_status_str: 'open-unpaid', balance: 4.94 });
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(['insert', 'status', 'status', 'status']);
    applied.delete(id);
  });

  it('guards void and delete on the net money applied: a fully refunded invoice can go', async () => {
    const refunded = await newInvoice(); // 104.94
    applied.set(refunded, { payments: new Decimal('104.94'), refunds: new Decimal('104.94') });
    await t.post(`/api/v3/invoice/${refunded}/_action/void`).expect(200);
    expect(await invoice(refunded)).toMatchObject({ invoice_status_str: 'closed-void', balance: 0 });

    const partly = await newInvoice();
    applied.set(partly, { payments: new Decimal('50'), refunds: new Decimal('20') });
    expect((await t.post(`/api/v3/invoice/${partly}/_action/void`).expect(400)).body.message).toBe(
      'This invoice has payments or credits applied: unapply them before voiding it.',
    );
    expect((await t.del(`/api/v3/invoice/${partly}`).expect(400)).body.message).toBe(
      'This invoice has payments or credits applied: unapply them before deleting it.',
    );
    applied.set(partly, { payments: new Decimal('50'), refunds: new Decimal('50') });
    await t.del(`/api/v3/invoice/${partly}`).expect(200);
    await t.get(`/api/v3/invoice/${partly}`).expect(404);
    applied.delete(refunded);
    applied.delete(partly);
  });

  it('payments feed balance and status through InvoiceExtensions and InvoiceStatusUpdater.refresh', async () => {
    const id = await newInvoice([{ item_id: c.plan, line_quantity: 3 }]); // 297.00 + 17.82 = 314.82
    applied.set(id, { payments: new Decimal('100') });
    expect(await invoice(id)).toMatchObject({
      payments: 100,
      applied: 100,
      balance: 214.82,
      invoice_status_str: 'open-unpaid',
    });
    expect((await invoice(id)).schedule[0]).toMatchObject({ amount: 314.82, balance: 214.82 });
    const del = await t.del(`/api/v3/invoice/${id}`).expect(400);
    expect(del.body.message).toBe('This invoice has payments or credits applied: unapply them before deleting it.');
    const shrink = await t
      .put(`/api/v3/invoice/${id}`, { line_items: [{ item_id: c.metered, line_quantity: 50 }] })
      .expect(400);
    expect(shrink.body.message).toContain('is less than the 100.00 already applied');

    applied.set(id, {
      payments: new Decimal('314.82'),
      credits: new Decimal('10'),
      refunds: new Decimal('10'),
      paid_date: '2026-03-10',
    });
    expect(await refresh([id])).toEqual([id]);
    expect(await invoice(id)).toMatchObject({
      payments: 314.82,
      credits: 10,
      refunds: 10,
      // applied = payments + credits − refunds = 314.82 + 10 − 10 (DESIGN §6 "Invoices").
      applied: 314.82,
      balance: 0,
      is_paid: true,
      paid_date: '2026-03-10',
      invoice_status_str: 'closed-paid',
    });
    const status = (await eventsOf(id)).filter((e) => e.event === 'status');
    expect(status).toHaveLength(1);
    expect((status[0].data as Json).invoice.invoice_status_str).toBe('closed-paid');
    expect(await refresh([id])).toEqual([]);
    const filtered = (await t.get('/api/v3/invoice?where=invoice_status_str:EQUALS:closed-paid').expect(200)).body
      .response;
    expect(filtered.map((i: Json) => i.invoice_id)).toContain(id);
    applied.delete(id);
  });

  it('DELETE removes an invoice with nothing applied', async () => {
    const id = await newInvoice();
    const res = await t.del(`/api/v3/invoice/${id}`).expect(200);
    expect(res.body.response).toBe(true);
    await t.get(`/api/v3/invoice/${id}`).expect(404);
    expect((await t.get(`/api/v3/invoice?where=invoice_id:EQUALS:${id}`).expect(200)).body.response).toEqual([]);
    await t.del(`/api/v3/invoice/${id}`).expect(404);
  });

  it('lists 500 invoices in a fixed number of SQL queries, whatever the page size', async () => {
    const template = await invoice(await newInvoice());
    const rows = Array.from({ length: 500 }, (_, i) => ({
      customer_id: customer,
      token: `bulk${String(i).padStart(8, '0')}`,
      date: '2026-03-01',
      due_date: '2026-03-31',
      subtotal: '99.00',
      taxes: '5.94',
      total: '104.94',
      sum_base: '0.00',
      sum_usage: '0.00',
      sum_onetime: '99.00',
      write_datetime: new Date('2026-03-10T17:00:00Z'),
      mod_datetime: new Date('2026-03-10T17:00:00Z'),
    }));
    for (let i = 0; i < rows.length; i += 100) {
      await t.dataSource
        .createQueryBuilder()
        .insert()
        .into('invoice')
        .values(rows.slice(i, i + 100))
        .execute();
    }
    expect(template.total).toBe(104.94);

    // The counter sees every query of the process: stop the background timers (the webhook
    // sweep every 2 s, the ACH settlement every minute), whose queries would land inside a
    // slow read now and then.
    t.app.get(DueWorkScheduler).stop();
    const statements = await spyOnStatements(t.dataSource);
    const queriesFor = async (limit: number): Promise<number> => {
      statements.clear();
      const res = await t.get(`/api/v3/invoice?limit=${limit}`).expect(200);
      expect(res.body.response).toHaveLength(limit);
      return statements.count();
    };
    const small = await queriesFor(10);
    const large = await queriesFor(500);
    // The counter does see every query: a full read loads lines, taxes, schedule and deliveries too.
    statements.clear();
    await t.get(`/api/v3/invoice/${template.invoice_id as number}`).expect(200);
    const single = statements.count();
    statements.restore();
    expect(single).toBeGreaterThanOrEqual(5);
    expect(large).toBe(small);
    expect(small).toBeGreaterThanOrEqual(1);
    expect(small).toBeLessThanOrEqual(4);
    expect(await rowCount(t, 'invoice')).toBeGreaterThanOrEqual(500);
  });
});
