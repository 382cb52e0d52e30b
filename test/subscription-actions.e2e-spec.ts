import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { startReceiver, WebhookReceiver } from './support/webhook-receiver';
import { Json } from './support/json';

/**
 * The subscription actions of DESIGN §6, their statuses and the package events a local
 * receiver gets (data keys of SPEC "Events"); bad input is a 400 that writes nothing.
 */
describe('subscription actions', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let customer: number;
  let plan: number;
  let addon: number;

  const pkg = async (id: number): Promise<Json> => (await t.get(`/api/v3/package/${id}`).expect(200)).body.response;
  const act = (id: number, action: string, body: Json = {}) => t.post(`/api/v3/package/${id}?action=${action}`, body);
  const newSub = (body: Json = {}) =>
    make.newSubscription(
      t,
      customer,
      [{ item_id: plan }, { item_id: addon, tierset: { base: 800, pricemodel: 'fla' } }],
      body,
    );
  const deliverAll = async (): Promise<void> => {
    await t.drainJobs();
    await t.app.get(WebhookSweeper).sweep();
    await t.drainJobs();
  };
  const received = async (id: number): Promise<Json[]> => {
    await deliverAll();
    // Deliveries run in parallel: compare by kind of event, never by arrival order.
    const order = ['insert', 'generate', 'update', 'upgrade', 'status', 'paycycle', 'paymethod'];
    return receiver.received
      .map((r) => r.body)
      .filter((b) => b.context_str === 'package' && b.context_id === id)
      .sort((a, b) => order.indexOf(a.event) - order.indexOf(b.event));
  };
  const eventsOf = async (id: number) => (await received(id)).map((b) => b.event as string);
  const lineCount = async (): Promise<number> =>
    Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM package_line'))[0].n);

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    receiver = await startReceiver();
    t.clock.set(new Date('2026-04-10T15:00:00Z')); // Apr 10, 10:00 in Chicago
    await t.post('/api/v3/_resthook', { target_url: receiver.url, event: '*' }).expect(201);
    plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 99 } });
    addon = await createId(t, '/api/v3/item', { name: 'Addon', pricemodel: { pricemodel: 'fla', base: 20 } });
    customer = await createId(t, '/api/v3/customer', { company: 'Acting', superuser_email: 'ap@acting.test' });
  });
  // Each test starts on Apr 10, 10:00 in Chicago, whatever the one before did to the clock.
  beforeEach(() => t.clock.set(new Date('2026-04-10T15:00:00Z')));
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('fires package/insert and package/update with package, customer and user', async () => {
    const id = await newSub();
    await t.put(`/api/v3/package/${id}`, { nickname: 'Renamed' }).expect(202);
    const events = await received(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'update']);
    for (const e of events) expect(Object.keys(e.data as Json).sort()).toEqual(['customer', 'package', 'user']);
    expect(events[1].data.package).toMatchObject({ package_id: id, nickname: 'Renamed' });
    expect(events[1].data.package.line_items).toHaveLength(2);
    expect(events[1].data.customer).toMatchObject({ customer_id: customer });
    expect(events[1].data.user).toMatchObject({ email: 'ap@acting.test' });
  });

  it('sends no webhook for a request with _flag_webhooks=0', async () => {
    const id = await newSub();
    await t.put(`/api/v3/package/${id}?_flag_webhooks=0`, { nickname: 'Quiet' }).expect(202);
    expect(await eventsOf(id)).toEqual(['insert']);
  });

  it('upgrade replaces, adds and removes lines and fires package/upgrade, never package/update', async () => {
    const id = await newSub();
    const [a, b] = (await pkg(id)).line_items as Json[];
    await act(id, 'upgrade', {
      line_items: [
        { line_item_id: a.line_item_id, item_id: addon, tierset: { base: '50', pricemodel: 'fla', paycycle: 'mon' } },
        { item_id: plan, line_quantity: 3 },
        { line_item_id: b.line_item_id, cancel: true },
      ],
    })
      .expect(200)
      .expect((res) => expect(res.body.response).toBe(true));
    const lines = (await pkg(id)).line_items as Json[];
    expect(lines.map((l) => [l.item_id, l.line_quantity, l.tierset.base])).toEqual([
      [addon, 1, 50],
      [plan, 3, 99],
    ]);
    expect(lines.map((l) => l.line_item_id)).not.toContain(a.line_item_id);
    expect(lines.map((l) => l.line_item_id)).not.toContain(b.line_item_id);
    const events = await received(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'upgrade']);
    expect(Object.keys(events[1].data as Json).sort()).toEqual(['customer', 'package', 'user']);
    expect(events[1].data.package.line_items).toHaveLength(2);
  });

  const invoicesOf = async (id: number): Promise<Json[]> => {
    const list = (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${id}`).expect(200)).body.response as Json[];
    return Promise.all(
      list.map(async (i) => (await t.get(`/api/v3/invoice/${i.invoice_id as number}`).expect(200)).body.response),
    );
  };
  const linesOf = (invoice: Json) =>
    (invoice.line_items as Json[]).map((l) => [l.line_total, l.line_prorate, l.is_recurring, l.is_setup]);

  it('invoice bills the next cycle in advance, then moves on one cycle (package/generate)', async () => {
    const id = await newSub();
    await act(id, 'invoice').expect(200);
    const [first] = await invoicesOf(id);
    expect(first).toMatchObject({ package_id: id, total: 899, date: '2026-04-10' });
    expect((await pkg(id)).next_invoice_datetime).toBe('2026-05-10T10:00:00-05:00');
    await act(id, 'invoice', { date: '2026-04-11' }).expect(200);
    expect((await pkg(id)).next_invoice_datetime).toBe('2026-06-10T10:00:00-05:00');
    expect((await invoicesOf(id)).map((i) => [i.total, i.date])).toEqual([
      [899, '2026-04-10'],
      [899, '2026-04-11'],
    ]);
    expect(await eventsOf(id)).toEqual(['insert', 'generate', 'generate']);
    expect((await act(id, 'invoice', { date: 'someday' }).expect(400)).body.message).toContain('date');
  });

  const upgradeMidCycle = async (when: 'now' | 'next'): Promise<number> => {
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    const id = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await act(id, 'invoice').expect(200); // cycle 0: Apr 10 .. May 10, 30 days, billed in advance
    const [old] = (await pkg(id)).line_items as Json[];
    t.clock.set(new Date('2026-04-21T17:00:00Z')); // Apr 21: 19 of 30 days left
    await act(id, 'upgrade', {
      subscribe_prorate_cycle: when,
      line_items: [
        {
          line_item_id: old.line_item_id,
          item_id: addon,
          tierset: { base: 800, pricemodel: 'fla' },
          subscribe_prorate: true,
          cancel_prorate: true,
        },
      ],
    }).expect(200);
    return id;
  };

  it('upgrade mid-cycle with subscribe_prorate_cycle now issues the hand-computed charge and credit', async () => {
    const id = await upgradeMidCycle('now');
    const [, prorations] = await invoicesOf(id);
    // 800 × 0.633333333 = 506.6666664 -> 506.67; 99 × 0.633333333 = 62.699999967 -> -62.70.
    expect(linesOf(prorations)).toEqual([
      [506.67, 0.633333333, true, false],
      [-62.7, -0.633333333, true, false],
    ]);
    expect(prorations).toMatchObject({ package_id: id, total: 443.97 });
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
  });

  it('upgrade mid-cycle with subscribe_prorate_cycle next puts them on the next cycle invoice', async () => {
    const id = await upgradeMidCycle('next');
    expect(await invoicesOf(id)).toHaveLength(1);
    await act(id, 'invoice').expect(200);
    const [, next] = await invoicesOf(id);
    // The new line for May 10 .. Jun 10 in advance, with the prorations of April.
    expect(linesOf(next)).toEqual([
      [800, null, true, false],
      [506.67, 0.633333333, true, false],
      [-62.7, -0.633333333, true, false],
    ]);
    expect(next.total).toBe(1243.97);
    // Carried once: the invoice after has the line only.
    await act(id, 'invoice').expect(200);
    expect((await invoicesOf(id))[2].total).toBe(800);
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
  });

  it('refuses a bad upgrade with a 400 naming the problem and writes nothing', async () => {
    const id = await newSub();
    const otherSub = await newSub();
    const [foreign] = (await pkg(otherSub)).line_items as Json[];
    const before = await lineCount();
    const cases: Array<[Json, string]> = [
      [{ line_items: [{ line_item_id: foreign.line_item_id, cancel: true }] }, 'line_items[0].line_item_id'],
      [{ line_items: [{ item_id: plan }, { item_id: 99999 }] }, 'line_items[1].item_id'],
      [{ line_items: [] }, 'line_items'],
      [{}, 'line_items'],
      [{ line_items: [{ item_id: plan }], subscribe_prorate_cycle: 'later' }, 'subscribe_prorate_cycle'],
      [{ line_items: [{ item_id: plan, bogus: 1 }] }, 'line_items[0].bogus'],
    ];
    for (const [body, named] of cases) {
      const res = await act(id, 'upgrade', body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body.message).toContain(named);
    }
    expect(await lineCount()).toBe(before);
    expect(await eventsOf(id)).toEqual(['insert']);
    const unknown = await act(id, 'explode').expect(400);
    expect(unknown.body.message).toContain('Unknown action "explode"');
  });

  it('cancels at a future date, then refuses a second cancel and an upgrade', async () => {
    const id = await newSub();
    await act(id, 'cancel', { cancel_date: '2026-05-01', cancel_reason: 'Moving on' }).expect(200);
    expect(await pkg(id)).toMatchObject({
      package_status_str: 'active-current',
      cancel_datetime: '2026-05-01T00:00:00-05:00',
      cancel_reason: 'Moving on',
    });
    t.clock.set(new Date('2026-05-01T06:00:00Z')); // 01:00 in Chicago: the date has come
    expect(await pkg(id)).toMatchObject({ package_status_str: 'canceled-manual', package_status_state: 'c' });
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    expect((await act(id, 'cancel').expect(400)).body.message).toContain('cannot be cancelled');
    expect((await act(id, 'upgrade', { line_items: [{ item_id: plan }] }).expect(400)).body.message).toContain(
      'cannot be upgraded',
    );
    expect(await eventsOf(id)).toEqual(['insert', 'update']);
  });

  it('cancels now: canceled-manual, no next invoice, package/status', async () => {
    const id = await newSub();
    await act(id, 'cancel', { cancel_reason: 'Too dear' }).expect(200);
    expect(await pkg(id)).toMatchObject({
      package_status_id: 5,
      package_status_name: 'Canceled manually',
      package_status_str: 'canceled-manual',
      package_status_state: 'c',
      cancel_datetime: '2026-04-10T10:00:00-05:00',
      cancel_reason: 'Too dear',
      next_invoice_datetime: '',
    });
    const events = await received(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'status']);
    expect(events[1].data.package).toMatchObject({ package_status_str: 'canceled-manual' });
    expect((await act(id, 'cancel').expect(400)).body.message).toContain('canceled manually (canceled-manual)');
  });

  it('refuses a cancel date in the past and writes nothing', async () => {
    const id = await newSub();
    const res = await act(id, 'cancel', { cancel_date: '2026-04-09' }).expect(400);
    expect(res.body.message).toContain('cancel_date');
    expect(await pkg(id)).toMatchObject({ package_status_str: 'active-current', cancel_datetime: null });
    await act(id, 'cancel', { cancel_date: 'soon' }).expect(400);
  });

  it('suspends and unsuspends: no back-billing, billing resumes at the next cycle start', async () => {
    const id = await newSub();
    await act(id, 'invoice').expect(200);
    await act(id, 'suspend', { suspendto_datetime: '2026-06-15' }).expect(200);
    expect(await pkg(id)).toMatchObject({
      package_status_id: 4,
      package_status_str: 'suspended-suspended',
      package_status_name: 'Suspended',
      package_status_state: 's',
      suspendfrom_datetime: '2026-04-10T10:00:00-05:00',
      suspendto_datetime: '2026-06-15T00:00:00-05:00',
    });
    const suspended = (await t.get('/api/v3/package?where=package_status_str:EQUALS:suspended-suspended').expect(200))
      .body.response as Json[];
    expect(suspended.map((p) => p.package_id)).toEqual([id]);
    t.clock.set(new Date('2026-06-20T15:00:00Z'));
    await act(id, 'unsuspend').expect(200);
    expect(await pkg(id)).toMatchObject({
      // The April invoice (Net 30, due May 10) is unpaid: overdue, while billing stays stopped.
      package_status_str: 'active-overdue',
      suspendfrom_datetime: null,
      // May 10 and Jun 10 were suspended: never billed. Next: Jul 10.
      next_invoice_datetime: '2026-07-10T10:00:00-05:00',
    });
    expect((await act(id, 'unsuspend').expect(400)).body.message).toContain('not suspended');
    expect(await eventsOf(id)).toEqual(['insert', 'generate', 'update', 'status']);
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    const bad = await act(id, 'suspend', { suspendfrom_datetime: '2026-05-01', suspendto_datetime: '2026-04-20' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('suspendto_datetime');
  });

  it('holds until a date: the next invoice moves to the first cycle start after it', async () => {
    const id = await newSub();
    await act(id, 'invoice').expect(200);
    await act(id, 'hold', { holduntil_datetime: '2026-08-01' }).expect(200);
    expect(await pkg(id)).toMatchObject({
      holduntil_datetime: '2026-08-01T00:00:00-05:00',
      next_invoice_datetime: '2026-08-10T10:00:00-05:00',
    });
    expect((await act(id, 'hold', {}).expect(400)).body.message).toContain('holduntil_datetime');
  });

  it('changes the paycycle (package/paycycle) and recomputes the next invoice from the anchor', async () => {
    const id = await newSub();
    await act(id, 'invoice').expect(200);
    await act(id, 'paycycle', { paycycle: 'qtr' }).expect(200);
    expect(await pkg(id)).toMatchObject({
      paycycle: 'qtr',
      paycycle_name: 'Quarterly',
      next_invoice_datetime: '2026-07-10T10:00:00-05:00',
    });
    expect((await act(id, 'paycycle', { paycycle: 'sometimes' }).expect(400)).body.message).toContain('paycycle');
    const events = await received(id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'generate', 'paycycle']);
    expect(Object.keys(events[1].data as Json).sort()).toEqual(['customer', 'package', 'user']);
  });

  it('sets the payment method with paymethod and its alias setPayMethod (package/paymethod)', async () => {
    const id = await newSub();
    const card = (
      await t
        .post('/api/v3/creditcard', {
          customer_id: customer,
          number: '4242424242424242',
          expdate_year: 2030,
          expdate_month: 1,
        })
        .expect(201)
    ).body.response.id as number;
    await act(id, 'paymethod', { paymethod: 'crd', creditcard_id: card }).expect(200);
    expect(await pkg(id)).toMatchObject({ paymethod: 'crd', paymethod_name: 'Credit Card', creditcard_id: card });
    await act(id, 'setPayMethod', { paymethod: 'inv' }).expect(200);
    expect(await pkg(id)).toMatchObject({ paymethod: 'inv', creditcard_id: null });
    const stranger = await createId(t, '/api/v3/customer', { company: 'Stranger' });
    const theirs = (
      await t
        .post('/api/v3/creditcard', {
          customer_id: stranger,
          number: '4242424242424242',
          expdate_year: 2030,
          expdate_month: 1,
        })
        .expect(201)
    ).body.response.id as number;
    expect((await act(id, 'paymethod', { creditcard_id: theirs }).expect(400)).body.message).toContain('creditcard_id');
    expect((await act(id, 'paymethod', {}).expect(400)).body.message).toContain('paymethod');
    expect(await eventsOf(id)).toEqual(['insert', 'paymethod', 'paymethod']);
  });

  it('welcome mails the customer contacts', async () => {
    const id = await newSub();
    await act(id, 'welcome').expect(200);
    const mails = await t.dataSource.query<Json[]>(
      `SELECT to_addr, subject FROM mail_message WHERE context_str = 'package' AND context_id = ${id}`,
    );
    expect(mails).toEqual([{ to_addr: 'ap@acting.test', subject: 'Welcome' }]);
  });
});
