import { DueWorkScheduler } from 'src/core/schedule/due-work-scheduler';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { spyOnStatements } from './support/statement-count';
import { Json } from './support/json';

/** `/package`: create, update, reads, query fields and the 400s that write nothing. */
describe('subscriptions (/package)', () => {
  let t: TestApp;
  let customer: number;
  let other: number;
  let plan: number;
  let addon: number;

  const pkg = async (id: number): Promise<Json> => (await t.get(`/api/v3/package/${id}`).expect(200)).body.response;
  const tableCount = async (table: string): Promise<number> =>
    Number((await t.dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  const counts = async () => ({
    package: await tableCount('package'),
    package_line: await tableCount('package_line'),
    tierset: await tableCount('tierset'),
  });

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-04-10T15:00:00Z')); // 10:00 in Chicago
    plan = await createId(t, '/api/v3/item', {
      name: 'Plan',
      external_key: 'plan',
      pricemodel: { pricemodel: 'fla', base: 99, paycycle: 'mon' },
    });
    addon = await createId(t, '/api/v3/item', { name: 'Addon', pricemodel: { pricemodel: 'fla', base: 20 } });
    customer = await createId(t, '/api/v3/customer', { company: 'Subscriber', external_key: 'subscriber' });
    other = await createId(t, '/api/v3/customer', { company: 'Other' });
  });
  afterAll(() => t.close());

  it('creates a subscription (201, Location) and reads it with its lines, each with its tierset', async () => {
    const res = await t
      .post('/api/v3/package', {
        customer_external_key: 'subscriber',
        nickname: 'Main',
        external_key: 'main-sub',
        custom_1: 123,
        line_items: [
          { item_id: plan, descrip: 'The plan' },
          { item_id: addon, line_quantity: '2', tierset: { base: '800', pricemodel: 'fla', paycycle: 'mon' } },
        ],
      })
      .expect(201);
    const id = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/package/${id}`);
    const p = await pkg(id);
    expect(p).toMatchObject({
      package_id: id,
      customer_id: customer,
      external_key: 'main-sub',
      nickname: 'Main',
      paymethod: 'inv',
      paymethod_name: 'Invoice',
      paycycle: 'mon',
      paycycle_name: 'Monthly',
      terms_id: 3,
      terms_name: 'Net 30',
      currency_id: 1,
      currency_symbol: '$',
      currency_iso4217: 'USD',
      custom_1: '123',
      amount_invoiced: 0,
      amount_collected: 0,
      amount_due: 0,
      is_overdue: false,
      days_overdue: 0,
      package_status_id: 2,
      package_status_name: 'Current',
      package_status_str: 'active-current',
      package_status_state: 'a',
      start_datetime: '2026-04-10T10:00:00-05:00',
      next_invoice_datetime: '2026-04-10T10:00:00-05:00',
      cancel_datetime: null,
      url_self: `https://billing.example.test/api/v3/package/${id}`,
    });
    expect(p.token).toMatch(/^[a-z0-9]{12}$/);
    expect(p.line_items).toHaveLength(2);
    const [first, second] = p.line_items as Json[];
    expect(first).toMatchObject({
      item_id: plan,
      descrip: 'The plan',
      line_quantity: 1,
      item_name: 'Plan',
      item_external_key: 'plan',
      subscribe_datetime: '2026-04-10T10:00:00-05:00',
      tierset: { base: 99, pricemodel: 'fla', paycycle: 'mon', base_formatted: '$ 99.00' },
    });
    expect(first.tierset.tierset_id).toBe(first.tierset_id);
    // The override is a tierset of the line's own: the item keeps its price.
    expect(second).toMatchObject({ item_id: addon, line_quantity: 2, tierset: { base: 800, pricemodel: 'fla' } });
    const item = (await t.get(`/api/v3/item/${addon}`).expect(200)).body.response;
    expect(item.tiersets[0].base).toBe(20);
    expect(second.tierset_id).not.toBe(item.tiersets[0].tierset_id);

    expect((await t.get('/api/v3/package/external_key:main-sub').expect(200)).body.response.package_id).toBe(id);
    expect((await t.get(`/api/v3/package/token:${p.token as string}`).expect(200)).body.response.package_id).toBe(id);
  });

  it('updates (202) the writable fields and keeps a revision of each write', async () => {
    const id = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    t.clock.advance(60_000);
    const res = await t
      .put(`/api/v3/package/${id}`, { custom_1: '777777', terms_id: 2, nickname: 'Renamed' })
      .expect(202);
    expect(res.body.response).toEqual({ id });
    const p = await pkg(id);
    expect(p).toMatchObject({ custom_1: '777777', terms_id: 2, terms_name: 'Net 15', nickname: 'Renamed' });
    expect(p.mod_datetime).not.toBe(p.write_datetime);
    const revisions = (await t.get(`/api/v3/package/${id}/_revision`).expect(200)).body.response as Json[];
    expect(revisions.length).toBe(2);
  });

  it('lists, counts and filters by the query fields of DESIGN §6', async () => {
    const a = await createId(t, '/api/v3/package', {
      customer_id: other,
      paycycle: 'yrl',
      custom_2: 'x',
      line_items: [{ item_id: addon }],
    });
    const b = await createId(t, '/api/v3/package', {
      customer_id: other,
      paycycle: 'qtr',
      line_items: [{ item_id: plan }, { item_id: addon }],
    });
    const list = (await t.get(`/api/v3/package?where=customer_id:EQUALS:${other}`).expect(200)).body.response as Json[];
    expect(list.map((p) => p.package_id)).toEqual([a, b]);
    expect(list[0]).not.toHaveProperty('line_items');
    expect(list[1]).toMatchObject({
      paycycle: 'qtr',
      paycycle_name: 'Quarterly',
      package_status_str: 'active-current',
    });
    const ids = async (q: string) =>
      ((await t.get(`/api/v3/package?${q}`).expect(200)).body.response as Json[]).map((p) => p.package_id);
    expect(await ids(`where=customer_id:EQUALS:${other},paycycle:EQUALS:yrl`)).toEqual([a]);
    expect(await ids(`where=customer_id:EQUALS:${other},line_items.item_id:EQUALS:${plan}`)).toEqual([b]);
    expect(await ids(`where=customer_id:EQUALS:${other}&order=package_id:DESC`)).toEqual([b, a]);
    expect(await ids(`where=customer_id:EQUALS:${other},package_status_str:EQUALS:active-current`)).toEqual([a, b]);
    expect(await ids(`where=customer_id:EQUALS:${other},package_status_state:EQUALS:a,custom_2:EQUALS:x`)).toEqual([a]);
    expect((await t.get(`/api/v3/package/_count?where=customer_id:EQUALS:${other}`).expect(200)).body.response).toBe(2);
    const bad = await t.get('/api/v3/package?where=amount_due:EQUALS:1').expect(400);
    expect(bad.body.message).toContain('amount_due');
  });

  it('is active-overdue while one of its invoices is overdue, with the money of its invoices', async () => {
    const id = await createId(t, '/api/v3/package', { customer_id: other, line_items: [{ item_id: plan }] });
    const invoice = await createId(t, '/api/v3/invoice', {
      customer_id: other,
      date: '2026-04-01',
      terms_id: 1,
      line_items: [{ item_id: plan }],
    });
    // Invoices come from subscriptions through the billing run; here the link is set directly.
    await t.dataSource.query(`UPDATE invoice SET package_id = ${id} WHERE invoice_id = ${invoice}`);
    await t
      .post('/api/v3/transaction', {
        customer_id: other,
        transaction_type: 'pay',
        gateway_method: 'check',
        amount: 9,
        applied_to: [{ invoice_id: invoice }],
      })
      .expect(201);
    expect(await pkg(id)).toMatchObject({
      amount_invoiced: 99,
      amount_collected: 9,
      amount_due: 90,
      is_overdue: true,
      days_overdue: 9,
      package_status_id: 3,
      package_status_str: 'active-overdue',
      package_status_name: 'Over Due',
      package_status_state: 'a',
    });
    const overdue = (await t.get('/api/v3/package?where=package_status_str:EQUALS:active-overdue').expect(200)).body
      .response as Json[];
    expect(overdue.map((p) => p.package_id)).toEqual([id]);
    const invoices = (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${id}`).expect(200)).body.response as Json[];
    expect(invoices.map((i) => i.invoice_id)).toEqual([invoice]);
  });

  it('sums the money of every invoice of a subscription: paid, part paid, credited; a void one not at all', async () => {
    const owner = await createId(t, '/api/v3/customer', { company: 'Long subscriber' });
    const id = await createId(t, '/api/v3/package', { customer_id: owner, line_items: [{ item_id: plan }] });
    const invoices: number[] = [];
    for (const date of ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01']) {
      invoices.push(
        await createId(t, '/api/v3/invoice', {
          customer_id: owner,
          date,
          terms_id: 1,
          line_items: [{ item_id: plan }],
        }),
      );
    }
    await t.dataSource.query(`UPDATE invoice SET package_id = ${id} WHERE invoice_id IN (${invoices.join(', ')})`);
    const [paid, partPaid, credited, voided] = invoices;
    const apply = (invoice: number, transaction_type: string, gateway_method: string, amount: number) =>
      t
        .post('/api/v3/transaction', {
          customer_id: owner,
          transaction_type,
          gateway_method,
          amount,
          applied_to: [{ invoice_id: invoice }],
        })
        .expect(201);
    await apply(paid, 'pay', 'check', 99);
    await apply(partPaid, 'pay', 'check', 40);
    await apply(credited, 'cre', 'credit', 20);
    await t.post(`/api/v3/invoice/${voided}?action=void`, {}).expect(200);
    expect(await pkg(id)).toMatchObject({
      amount_invoiced: 297,
      amount_collected: 159,
      amount_due: 138,
      is_overdue: true,
      // The part-paid invoice, due on Feb 1, is the oldest one owing.
      days_overdue: 68,
      package_status_str: 'active-overdue',
    });
  });

  it('refuses bad input with a 400 naming the problem, and writes nothing', async () => {
    const before = await counts();
    const cases: Array<[Json, string]> = [
      [{ customer_id: customer, line_items: [{ item_id: 99999 }] }, 'line_items[0].item_id'],
      [{ customer_id: customer, paycycle: 'fortnightly', line_items: [{ item_id: plan }] }, 'paycycle'],
      [{ customer_id: customer, paycycle: 'one', line_items: [{ item_id: plan }] }, 'paycycle'],
      [{ customer_id: customer, line_items: [] }, 'line_items'],
      [{ customer_id: customer }, 'line_items'],
      [{ customer_id: 99999, line_items: [{ item_id: plan }] }, 'customer_id'],
      [{ line_items: [{ item_id: plan }] }, 'customer_id'],
      [{ customer_id: customer, line_items: [{ item_id: plan }, { item_id: 99999 }] }, 'line_items[1].item_id'],
      [{ customer_id: customer, line_items: [{ item_id: plan, line_quantity: 'x' }] }, 'line_items[0].line_quantity'],
      [{ customer_id: customer, line_items: [{ item_id: plan, tierset: { pricemodel: 'zzz' } }] }, 'pricemodel'],
      [
        { customer_id: customer, package_status_str: 'x', line_items: [{ item_id: plan }] },
        '"package_status_str" is read-only',
      ],
      [{ customer_id: customer, terms_id: 99, line_items: [{ item_id: plan }] }, 'terms_id'],
      [{ customer_id: customer, paymethod: 'crd', line_items: [{ item_id: plan }] }, 'creditcard_id'],
      [{ customer_id: customer, creditcard_id: 4242, line_items: [{ item_id: plan }] }, 'creditcard_id'],
      [{ customer_id: customer, external_key: 'main-sub', line_items: [{ item_id: plan }] }, 'external_key'],
    ];
    for (const [body, named] of cases) {
      const res = await t.post('/api/v3/package', body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(res.body).toMatchObject({ code: 400, status: 'Error', response: false });
      expect(res.body.message).toContain(named);
    }
    expect(await counts()).toEqual(before);
    await t.get('/api/v3/package/99999').expect(404);
    const put = await t.put('/api/v3/package/1', { paycycle: 'yrl' }).expect(400);
    expect(put.body.message).toContain('"paycycle" is read-only');
  });

  it('reads a page of subscriptions in a fixed number of statements (no N+1)', async () => {
    const c = await createId(t, '/api/v3/customer', { company: 'Counted' });
    const withInvoice = async (): Promise<number> => {
      const id = await createId(t, '/api/v3/package', {
        customer_id: c,
        line_items: [{ item_id: plan }, { item_id: addon }],
      });
      const invoice = await createId(t, '/api/v3/invoice', { customer_id: c, line_items: [{ item_id: plan }] });
      await t.dataSource.query(`UPDATE invoice SET package_id = ${id} WHERE invoice_id = ${invoice}`);
      return id;
    };
    const one = await withInvoice();
    // The counters see every statement of the process: stop the background due work (the
    // webhook sweep every 2 s), whose reads would land inside a slow request now and then.
    t.app.get(DueWorkScheduler).stop();
    const statements = await spyOnStatements(t.dataSource);
    const statementsOf = async (path: string): Promise<number> => {
      statements.clear();
      await t.get(path).expect(200);
      return statements.count();
    };
    try {
      const pageOfOne = await statementsOf(`/api/v3/package?where=customer_id:EQUALS:${c}`);
      for (let i = 0; i < 4; i++) await withInvoice();
      const pageOfFive = await statementsOf(`/api/v3/package?where=customer_id:EQUALS:${c}`);
      // The page, its lines, its invoices and the money applied to them.
      expect([pageOfOne, pageOfFive]).toEqual([4, 4]);
      const full = await statementsOf(`/api/v3/package/${one}`);
      // By id, then the subscription, lines, invoices, money applied, tiersets, tiers.
      expect(full).toBe(7);
    } finally {
      statements.restore();
    }
  });
});
