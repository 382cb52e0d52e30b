import { NightlyJob } from 'src/billing-runs/nightly/nightly-job';
import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { startReceiver, WebhookReceiver } from './support/webhook-receiver';
import { spyOnStatements } from './support/statement-count';
import { Json } from './support/json';

/** `/quote`: create, update, reads, conversion and rejection, events, and the 400s that write nothing. */
describe('quotes (/quote)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let customer: number;
  let plan: number;
  let taxed: number;
  let addon: number;

  const quote = async (id: number): Promise<Json> => (await t.get(`/api/v3/quote/${id}`).expect(200)).body.response;
  const act = (id: number, action: string, body: Json = {}) => t.post(`/api/v3/quote/${id}?action=${action}`, body);
  const newQuote = (body: Json = {}) => make.newQuote(t, customer, [{ item_id: plan }], { paycycle: 'mon', ...body });
  const count = async (table: string): Promise<number> =>
    Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  const received = async (id: number): Promise<Json[]> => {
    await t.drainJobs();
    await t.app.get(WebhookSweeper).sweep();
    await t.drainJobs();
    // Deliveries run in parallel: compare by event, never by arrival order.
    const order = ['insert', 'update', 'status', 'won', 'lost'];
    return receiver.received
      .map((r) => r.body)
      .filter((b) => b.context_str === 'quote' && b.context_id === id)
      .sort((a, b) => order.indexOf(a.event) - order.indexOf(b.event));
  };

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    receiver = await startReceiver();
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    await t.post('/api/v3/_resthook', { target_url: receiver.url, event: 'quote.*' }).expect(201);
    const tax = await createId(t, '/api/v3/tax', { name: 'State tax', rate: 6 });
    const group = await createId(t, '/api/v3/tax_group', { name: 'Standard', tax_id: tax });
    plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 99 } });
    taxed = await createId(t, '/api/v3/item', {
      name: 'Taxed',
      tax_group_id: group,
      pricemodel: { pricemodel: 'fla', base: 100, setup: 25 },
    });
    addon = await createId(t, '/api/v3/item', { name: 'Addon', pricemodel: { pricemodel: 'fla', base: 20 } });
    customer = await createId(t, '/api/v3/customer', { company: 'Quoted', superuser_email: 'ap@quoted.test' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('creates a quote (201) priced line by line, and reads it with its lines and their tiersets', async () => {
    const res = await t
      .post('/api/v3/quote', {
        customer_id: customer,
        paycycle: 'mon',
        nickname: 'Offer',
        date: '2026-04-10',
        line_items: [
          { item_id: plan, line_quantity: 2 },
          { item_id: taxed },
          { item_id: addon, tierset: { pricemodel: 'fla', base: 10, setup: 5 } },
          { item_id: plan, line_rate: 12.5, descrip: 'Fixed rate' },
        ],
      })
      .expect(201);
    const id = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/quote/${id}`);
    const q = await quote(id);
    // 198 + 100 + 10 + 12.50; setup 25 + 5; tax 6 % of 100; total = subtotal + taxes;
    // upfront adds setup and its tax (6 % of 25 = 1.50).
    expect(q).toMatchObject({
      quote_id: id,
      customer_id: customer,
      refnumber: String(id),
      paycycle: 'mon',
      paycycle_name: 'Monthly',
      nickname: 'Offer',
      date: '2026-04-10',
      due_date: '2026-05-10',
      subtotal: 320.5,
      setup: 30,
      taxes: 6,
      total: 326.5,
      upfront: 358,
      quote_status_id: 1,
      quote_status_name: 'New',
      quote_status_str: 'open-new',
      quote_status_state: 'o',
      won_datetime: null,
      url_self: `https://billing.example.test/api/v3/quote/${id}`,
    });
    expect(q.url_acceptlink).toContain(q.token);
    expect(q.url_rejectlink).toContain(q.token);
    const lines = q.line_items as Json[];
    expect(lines.map((l) => [l.item_id, l.line_quantity, l.line_subtotal, l.line_total])).toEqual([
      [plan, 2, 198, 198],
      [taxed, 1, 100, 106],
      [addon, 1, 10, 10],
      [plan, 1, 12.5, 12.5],
    ]);
    expect(lines[2].tierset).toMatchObject({ base: 10, setup: 5, pricemodel: 'fla' });
    expect(lines[0]).toMatchObject({ item_name: 'Plan', is_base: true, tierset: { base: 99 } });
  });

  it('updates (202): keeps a line named alone, reprices, removes the rest', async () => {
    const id = await newQuote({ line_items: [{ item_id: plan }, { item_id: taxed }] });
    const [first] = (await quote(id)).line_items as Json[];
    await t
      .put(`/api/v3/quote/${id}`, {
        customer_id: customer,
        memo: 'Revised',
        line_items: [{ line_item_id: first.line_item_id }, { item_id: addon, line_quantity: 3 }],
      })
      .expect(202);
    const q = await quote(id);
    expect(q).toMatchObject({ memo: 'Revised', subtotal: 159, taxes: 0, total: 159, setup: 0 });
    expect((q.line_items as Json[]).map((l) => [l.line_item_id === first.line_item_id, l.item_id])).toEqual([
      [true, plan],
      [false, addon],
    ]);
    const bad = await t.put(`/api/v3/quote/${id}`, { total: 5 }).expect(400);
    expect(bad.body.message).toContain('"total" is read-only');
  });

  it('lists, counts and filters by the query fields', async () => {
    const c = await createId(t, '/api/v3/customer', { company: 'Listed' });
    const a = await newQuote({ customer_id: c, external_key: 'qa' });
    const b = await newQuote({ customer_id: c, paycycle: 'yrl' });
    const ids = async (q: string) =>
      ((await t.get(`/api/v3/quote?${q}`).expect(200)).body.response as Json[]).map((x) => x.quote_id);
    expect(await ids(`where=customer_id:EQUALS:${c}`)).toEqual([a, b]);
    expect(await ids(`where=customer_id:EQUALS:${c},paycycle:EQUALS:yrl`)).toEqual([b]);
    expect(await ids(`where=external_key:EQUALS:qa`)).toEqual([a]);
    expect(await ids(`where=customer_id:EQUALS:${c}&order=quote_id:DESC`)).toEqual([b, a]);
    await act(b, 'reject').expect(200);
    expect(await ids(`where=customer_id:EQUALS:${c},quote_status_state:EQUALS:c`)).toEqual([b]);
    expect((await t.get(`/api/v3/quote/_count?where=customer_id:EQUALS:${c}`).expect(200)).body.response).toBe(2);
    expect((await t.get('/api/v3/quote/external_key:qa').expect(200)).body.response.quote_id).toBe(a);
    await t.get('/api/v3/quote/99999').expect(404);
  });

  it('converts a recurring quote into a subscription with its lines and prices, honouring the hold', async () => {
    const id = await newQuote({
      holduntil_datetime_str: '2026-05-01',
      line_items: [
        { item_id: plan, line_quantity: 2 },
        { item_id: addon, tierset: { pricemodel: 'fla', base: 10 } },
      ],
    });
    const res = await act(id, 'convert').expect(200);
    const created = res.body.response as Json;
    expect(created.context_str).toBe('package');
    const p = (await t.get(`/api/v3/package/${created.id as number}`).expect(200)).body.response;
    expect(p).toMatchObject({
      customer_id: customer,
      paycycle: 'mon',
      holduntil_datetime: '2026-05-01T00:00:00-05:00',
      start_datetime: '2026-05-01T00:00:00-05:00',
      next_invoice_datetime: '2026-05-01T00:00:00-05:00',
    });
    expect((p.line_items as Json[]).map((l) => [l.item_id, l.line_quantity, l.tierset.base])).toEqual([
      [plan, 2, 99],
      [addon, 1, 10],
    ]);
    expect(await quote(id)).toMatchObject({
      quote_status_id: 2,
      quote_status_name: 'Accepted',
      quote_status_str: 'closed-won',
      quote_status_state: 'c',
      won_datetime: '2026-04-10T10:00:00-05:00',
      package_id: created.id,
    });

    const events = await received(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'status', 'won']);
    for (const e of events)
      expect(Object.keys(e.data as Json).sort()).toEqual(['customer', 'invoices', 'packages', 'quote']);
    expect(events[2].data.packages).toHaveLength(1);
    expect(events[2].data.packages[0]).toMatchObject({ package_id: created.id });
    expect(events[2].data.quote).toMatchObject({ quote_status_str: 'closed-won' });

    // A closed quote refuses a second conversion, a change and a rejection, and writes nothing.
    const packages = await count('package');
    expect((await act(id, 'convert').expect(400)).body.message).toContain('closed (closed-won');
    expect((await t.put(`/api/v3/quote/${id}`, { memo: 'x' }).expect(400)).body.message).toContain('cannot be changed');
    await act(id, 'reject').expect(400);
    expect(await count('package')).toBe(packages);
  });

  it('converts a one-time quote into an invoice with the quoted lines and prices (quote/won with invoices)', async () => {
    const id = await newQuote({
      paycycle: 'one',
      line_items: [
        { item_id: plan, line_quantity: 2 },
        { item_id: taxed },
        { item_id: addon, tierset: { pricemodel: 'fla', base: 10, setup: 5 } },
        { item_id: plan, line_rate: 12.5 },
      ],
    });
    const created = (await act(id, 'convert').expect(200)).body.response as Json;
    expect(created.context_str).toBe('invoice');
    const invoice = (await t.get(`/api/v3/invoice/${created.id as number}`).expect(200)).body.response;
    // The quote's upfront: 198 + 100 + 10 + 12.50 + setup 25 + 5; tax 6 % of 100 and of 25.
    expect(invoice).toMatchObject({ customer_id: customer, subtotal: 350.5, taxes: 7.5, total: 358 });
    expect(await quote(id)).toMatchObject({ quote_status_str: 'closed-won', invoice_id: created.id });
    const events = await received(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'status', 'won']);
    expect(events[2].data.invoices).toHaveLength(1);
    expect(events[2].data.invoices[0]).toMatchObject({ invoice_id: created.id, total: 358 });
    expect(events[2].data.packages).toEqual([]);
    const invoices = await count('invoice');
    await act(id, 'convert').expect(400);
    expect(await count('invoice')).toBe(invoices);
  });

  it('rejects a quote: closed-lost, quote/status and quote/lost', async () => {
    const id = await newQuote();
    await t.put(`/api/v3/quote/${id}`, { nickname: 'Second try' }).expect(202);
    await act(id, 'reject').expect(200);
    expect(await quote(id)).toMatchObject({
      quote_status_str: 'closed-lost',
      quote_status_name: 'Rejected',
      lost_datetime: '2026-04-10T10:00:00-05:00',
    });
    const events = await received(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'update', 'status', 'lost']);
    expect(events[3].data).toMatchObject({ invoices: [], packages: [] });
    await act(id, 'convert').expect(400);
  });

  it('fires quote/nightly each night for open quotes only, with the quote and customer', async () => {
    const open = await newQuote();
    const lost = await newQuote();
    await act(lost, 'reject').expect(200);
    await received(lost);
    const summary = await t.app.get(NightlyJob).runFor('2026-04-11');
    expect(summary).not.toBeNull();
    const nightlyOf = async (id: number) => (await received(id)).filter((e) => e.event === 'nightly');
    const [event] = await nightlyOf(open);
    expect(event.data.quote.quote_id).toBe(open);
    expect(event.data.customer.customer_id).toBe(customer);
    expect(await nightlyOf(lost)).toEqual([]);
    // A night runs once: a second run of the same date announces nothing again.
    expect(await t.app.get(NightlyJob).runFor('2026-04-11')).toBeNull();
    expect(await nightlyOf(open)).toHaveLength(1);
  });

  it('emails a quote to the customer contacts', async () => {
    const id = await newQuote();
    await act(id, 'email').expect(200);
    await act(id, 'email', { email: 'buyer@quoted.test' }).expect(200);
    const mails = await t.dataSource.query<Json[]>(
      `SELECT to_addr FROM mail_message WHERE context_str = 'quote' AND context_id = ${id} ORDER BY mail_message_id`,
    );
    expect(mails.map((m) => m.to_addr)).toEqual(['ap@quoted.test', 'buyer@quoted.test']);
    await act(id, 'email', { email: 'nope' }).expect(400);
  });

  it('refuses bad input with a 400 naming the problem and writes nothing', async () => {
    const before = [await count('quote'), await count('quote_line')];
    const cases: Array<[Json, string]> = [
      [{ customer_id: 99999, paycycle: 'mon', line_items: [{ item_id: plan }] }, 'customer_id'],
      [{ paycycle: 'mon', line_items: [{ item_id: plan }] }, 'customer_id'],
      [{ customer_id: customer, line_items: [{ item_id: plan }] }, 'paycycle'],
      [{ customer_id: customer, paycycle: 'often', line_items: [{ item_id: plan }] }, 'paycycle'],
      [{ customer_id: customer, paycycle: 'mon', line_items: [] }, 'line_items'],
      [{ customer_id: customer, paycycle: 'mon' }, 'line_items'],
      [{ customer_id: customer, paycycle: 'mon', line_items: [{ item_id: 99999 }] }, 'line_items[0].item_id'],
      [{ customer_id: customer, paycycle: 'mon', line_items: [{ item_id: plan, line_total: 3 }] }, 'read-only'],
      [{ customer_id: customer, paycycle: 'mon', total: 1, line_items: [{ item_id: plan }] }, '"total" is read-only'],
      [
        { customer_id: customer, paycycle: 'mon', holduntil_datetime_str: 'later', line_items: [{ item_id: plan }] },
        'holduntil_datetime_str',
      ],
    ];
    for (const [body, named] of cases) {
      const res = await t.post('/api/v3/quote', body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.message).toContain(named);
    }
    expect([await count('quote'), await count('quote_line')]).toEqual(before);
  });

  it('reads a page of quotes in one statement whatever its size (sums are stored)', async () => {
    const c = await createId(t, '/api/v3/customer', { company: 'Paged' });
    for (let i = 0; i < 3; i++) await newQuote({ customer_id: c, line_items: [{ item_id: plan }, { item_id: taxed }] });
    await received(0); // deliveries of the creates are done before counting
    const statements = await spyOnStatements(t.dataSource);
    try {
      statements.clear();
      const page = await t.get(`/api/v3/quote?where=customer_id:EQUALS:${c}`).expect(200);
      expect(page.body.response).toHaveLength(3);
      expect(statements.count()).toBe(1);
    } finally {
      statements.restore();
    }
  });
});
