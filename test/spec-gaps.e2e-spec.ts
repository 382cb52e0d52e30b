import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { startReceiver, WebhookReceiver } from './support/webhook-receiver';
import { Json } from './support/json';

/**
 * The SPEC gaps of issue 41: query fields `quote.quote_id` (invoices) and
 * `applied_to.package_external_key` (transactions), the `welcome` action's mail overrides,
 * `the_users_password` of user/insert, the recorded calls whose paging the PHP client glues
 * onto the parameter before it, `tierset.percent` as a string and the refund's numeric id.
 */
describe('SPEC gaps (issue 41)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let plan: number;
  let customer: number;

  const list = async (path: string): Promise<Json[]> => (await t.get(path).expect(200)).body.response as Json[];
  const mails = (contextStr: string, id: number) =>
    t.dataSource.query<Json[]>(
      `SELECT to_addr, cc_addr, subject, body FROM mail_message WHERE context_str = '${contextStr}' AND context_id = ${id} ORDER BY mail_message_id`,
    );

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    receiver = await startReceiver();
    t.clock.set(new Date('2026-04-10T15:00:00Z'));
    plan = await make.newItem(t, { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 99, paycycle: 'mon' } });
    customer = await make.newCustomer(t, { company: 'Gaps', superuser_email: 'ap@gaps.test' });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('finds the invoice a quote became by quote.quote_id', async () => {
    const quote = await make.newQuote(t, customer, [{ item_id: plan }], { paycycle: 'one' });
    const other = await make.newQuote(t, customer, [{ item_id: plan }], { paycycle: 'one' });
    const won = (await t.post(`/api/v3/quote/${quote}?action=convert`, {}).expect(200)).body.response as Json;
    await make.newInvoice(t, customer, plan); // an invoice from no quote
    const found = await list(`/api/v3/invoice?where=quote.quote_id:EQUALS:${quote}`);
    expect(found.map((i) => i.invoice_id)).toEqual([won.id]);
    expect(await list(`/api/v3/invoice?where=quote.quote_id:EQUALS:${other}`)).toEqual([]); // still open
    const count = await t.get(`/api/v3/invoice/_count?where=quote.quote_id:EQUALS:${quote}`).expect(200);
    expect(count.body.response).toBe(1);
  });

  it('finds the payments applied to a subscription by applied_to.package_external_key', async () => {
    const pkg = await make.newSubscription(t, customer, [{ item_id: plan }], { external_key: 'Sub-Gap-1' });
    await t.post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(200);
    const [invoice] = await list(`/api/v3/invoice?where=package_id:EQUALS:${pkg}`);
    const payment = await createId(t, '/api/v3/transaction', {
      customer_id: customer,
      transaction_type: 'pay',
      gateway_method: 'check',
      amount: invoice.total,
      applied_to: [{ invoice_id: invoice.invoice_id }],
    });
    // A payment of the same customer applied to an invoice of no subscription.
    const loose = await make.newInvoice(t, customer, plan);
    await createId(t, '/api/v3/transaction', {
      customer_id: customer,
      transaction_type: 'pay',
      gateway_method: 'check',
      amount: '100.00',
      applied_to: [{ invoice_id: loose }],
    });
    // Text comparisons ignore case (DESIGN §4 "Lists").
    const found = await list('/api/v3/transaction?where=applied_to.package_external_key:EQUALS:sub-gap-1');
    expect(found.map((tr) => tr.transaction_id)).toEqual([payment]);
  });

  describe('welcome', () => {
    it('takes message_id as the PHP client sends it and mails the customer contacts', async () => {
      const pkg = await make.newSubscription(t, customer, [{ item_id: plan }]);
      const res = await t.post(`/api/v3/package/${pkg}?action=welcome`, { message_id: 19 }).expect(200);
      expect(res.body.response).toBe(true);
      await t.post(`/api/v3/package/${pkg}?action=welcome`, []).expect(200); // PHP's empty object
      const welcome = expect.objectContaining({ to_addr: 'ap@gaps.test', cc_addr: null, subject: 'Welcome' });
      expect(await mails('package', pkg)).toEqual([welcome, welcome]);
    });

    it('takes the mail overrides of the invoice email action', async () => {
      const pkg = await make.newSubscription(t, customer, [{ item_id: plan }]);
      await t
        .post(`/api/v3/package/${pkg}?action=welcome`, {
          email: 'one@gaps.test, two@gaps.test',
          cc: 'boss@gaps.test',
          subject: 'Hello there',
          body: 'Your plan is ready.',
        })
        .expect(200);
      expect(await mails('package', pkg)).toEqual([
        {
          to_addr: 'one@gaps.test, two@gaps.test',
          cc_addr: 'boss@gaps.test',
          subject: 'Hello there',
          body: 'Your plan is ready.',
        },
      ]);
    });

    it('refuses an unknown field or a bad address with a 400 naming it, and mails nothing', async () => {
      const pkg = await make.newSubscription(t, customer, [{ item_id: plan }]);
      const unknown = await t.post(`/api/v3/package/${pkg}?action=welcome`, { colour: 'red' }).expect(400);
      expect(unknown.body.message).toBe('Invalid field: "colour" is not a field of action welcome.');
      const bad = await t.post(`/api/v3/package/${pkg}?action=welcome`, { email: 'nobody' }).expect(400);
      expect(bad.body.message).toBe('Invalid field "email": must be e-mail addresses separated by commas.');
      expect(await mails('package', pkg)).toEqual([]);
    });
  });

  describe('user.insert webhook', () => {
    const deliveredInserts = async (): Promise<Json[]> => {
      await t.drainJobs();
      await t.app.get(WebhookSweeper).sweep();
      await t.drainJobs();
      return receiver.received
        .map((r) => r.body as Json)
        .filter((b) => b.context_str === 'user' && b.event === 'insert');
    };

    it('says a password was set, never what it is; null when none was', async () => {
      await t.post('/api/v3/_resthook', { target_url: receiver.url, event: 'user.insert' }).expect(201);
      const withPassword = await createId(t, '/api/v3/user', {
        customer_id: customer,
        email: 'pw@gaps.test',
        password: 'correct horse battery',
      });
      const without = await createId(t, '/api/v3/user', { customer_id: customer, email: 'nopw@gaps.test' });
      const inserts = await deliveredInserts();
      const of = (id: number) => inserts.find((b) => b.context_id === id)!;
      expect(of(withPassword).data.the_users_password).toBe('********');
      expect(of(without).data.the_users_password).toBeNull();
      expect(JSON.stringify(inserts)).not.toContain('correct horse battery');
    });
  });

  describe('recorded calls with the paging glued on (reference PHP client)', () => {
    it('GET /user?where=customers.customer_id:EQUALS:<id>limit=100?offset=0 answers 200 with the contacts', async () => {
      const own = await make.newCustomer(t, { company: 'Glued', superuser_email: 'main@glued.test' });
      await createId(t, '/api/v3/user', { customer_id: own, email: 'second@glued.test' });
      const found = await list(`/api/v3/user?where=customers.customer_id:EQUALS:${own}limit=100?offset=0`);
      expect(found.map((u) => u.email)).toEqual(['main@glued.test', 'second@glued.test']);
    });

    it('GET /invoice?order=invoice_date:DESClimit=1?offset=0&where=package_id:EQUALS:<id> answers 200, newest first, one', async () => {
      const pkg = await make.newSubscription(t, customer, [{ item_id: plan }]);
      await t.post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(200); // Apr 10
      t.clock.set(new Date('2026-05-10T15:00:00Z'));
      await t.post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(200); // the next cycle, May 10
      t.clock.set(new Date('2026-04-10T15:00:00Z'));
      const all = await list(`/api/v3/invoice?order=invoice_id:ASC&where=package_id:EQUALS:${pkg}`);
      expect(all).toHaveLength(2);
      const found = await list(
        `/api/v3/invoice?order=invoice_date:DESClimit=1?offset=0&where=package_id:EQUALS:${pkg}`,
      );
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ invoice_id: all[1].invoice_id, date: '2026-05-10' });
    });
  });

  it('answers tierset.percent as a string with six decimals, on items and subscription lines', async () => {
    const item = (await t.get(`/api/v3/item/${plan}`).expect(200)).body.response as Json;
    expect(item.tiersets[0]).toMatchObject({ percent: '0.000000', percent_formatted: '0 %' });
    const pkg = await make.newSubscription(t, customer, [{ item_id: plan }]);
    const sub = (await t.get(`/api/v3/package/${pkg}`).expect(200)).body.response as Json;
    expect(sub.line_items[0].tierset).toMatchObject({ percent: '0.000000' });
  });

  it('answers a refund with a numeric id, as every other create', async () => {
    const invoice = await make.newInvoice(t, customer, plan);
    const payment = await createId(t, '/api/v3/transaction', {
      customer_id: customer,
      transaction_type: 'pay',
      gateway_method: 'check',
      amount: '100.00',
      applied_to: [{ invoice_id: invoice }],
    });
    const res = await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: 10 }).expect(200);
    expect(res.body.response).toEqual({ id: expect.any(Number) });
    const refund = (await t.get(`/api/v3/transaction/${res.body.response.id as number}`).expect(200)).body.response;
    expect(refund).toMatchObject({ transaction_type: 'ref', amount: -10 }); // 10.00 of 100.00 back
  });
});
