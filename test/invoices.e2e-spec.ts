import { Catalog, createCatalog, createId, rowCount } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

describe('invoices', () => {
  let t: TestApp;
  let c: Catalog;
  let customer: number;
  let untaxed: number;

  beforeAll(async () => {
    t = await createTestApp({ DATETIME_FORMAT: 'sql' });
    // 2026-03-10 12:00 in Chicago.
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customer = await createId(t, '/api/v3/customer', {
      company: 'Acme',
      external_key: 'acme',
      terms_id: 2,
      superuser_email: 'ap@acme.test',
      superuser_first_name: 'Ann',
      bill_addr1: '1 Main St',
      bill_city: 'Burlington',
      bill_state: 'VT',
      bill_postcode: '05401',
      bill_country: 'United States',
    });
    untaxed = await createId(t, '/api/v3/customer', { company: 'Exempt', no_taxes: true });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every price model, a line_rate override, a setup fee, a percent discount and two tax rates. */
  const mixedLines = () => [
    { item_id: c.plan, line_quantity: 3, custom_1: 'po-1' }, // 3 x 99 = 297.00; tax 6 % = 17.82
    { item_id: c.seats, line_quantity: 12 }, // 10 + 10x5 + 2x4.50 = 69.00; tax 7.25 % = 5.0025 -> 5.00
    //                                          + setup line 25.00; tax 7.25 % = 1.8125 -> 1.81
    { item_id: c.consulting, line_quantity: '2.5', descrip: 'Design' }, // 2.5 x 150 = 375.00, untaxed
    { item_id: c.plan, line_rate: 19.99, line_quantity: 3 }, // 59.97; tax 6 % = 3.5982 -> 3.60
    { item_id: c.metered, line_quantity: 12.345 }, // pass-through 12.345 -> 12.35, untaxed
    { item_id: c.tenOff }, // -10 % of 838.32 = -83.832 -> -83.83, untaxed
  ];

  async function invoice(id: number): Promise<Json> {
    return (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
  }

  it('prices mixed items and taxes to the cent, with every read-only field', async () => {
    const res = await t
      .post('/api/v3/invoice', { customer_id: customer, date: '2026-03-01', memo: 'March', line_items: mixedLines() })
      .expect(201);
    const id = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/invoice/${id}`);

    const inv = await invoice(id);
    expect(inv).toMatchObject({
      invoice_id: id,
      customer_id: customer,
      refnumber: String(id),
      date: '2026-03-01',
      due_date: '2026-03-16', // Net 15 from the customer
      terms_id: 2,
      terms_name: 'Net 15',
      terms_days: 15,
      currency_id: 1,
      currency_symbol: '$',
      currency_iso4217: 'USD',
      paycycle: 'one',
      paycycle_name: 'One time',
      subtotal: 754.49, // 838.32 - 83.83
      taxes: 28.23, // 17.82 + 5.00 + 1.81 + 3.60
      total: 782.72,
      sum_base: 0,
      sum_usage: 0,
      sum_onetime: 754.49,
      credits: 0,
      payments: 0,
      writeoffs: 0,
      refunds: 0,
      applied: 0,
      balance: 782.72,
      overdue: 0,
      declines: 0,
      paid_date: null,
      is_paid: false,
      is_void: false,
      is_overdue: false,
      days_overdue: 0,
      invoice_status_str: 'open-unpaid',
      invoice_status_state: 'o',
      invoice_status_name: 'Unpaid',
      void_datetime: null,
      package_id: null,
      memo: 'March',
      brand_id: 1,
      brand_name: expect.any(String),
      bill_block: '1 Main St\nBurlington VT 05401\nUnited States',
      ship_block: '',
      url_self: `https://billing.example.test/api/v3/invoice/${id}`,
    });
    expect(inv.url_permalink).toBe(`https://billing.example.test/r/invoice/view/${inv.token}`);
    expect(inv.url_paylink).toBe(`https://billing.example.test/r/trans/pay/${inv.token}`);
    expect(inv.url_pdflink).toBe(`https://billing.example.test/r/invoice/pdf/${inv.token}`);
    expect(Object.keys(inv).slice(0, 5)).toEqual(['invoice_id', 'currency_id', 'terms_id', 'token', 'refnumber']);

    const lines = inv.line_items as Json[];
    expect(lines.map((l) => [l.item_id, l.line_subtotal, l.tax_total, l.line_total, l.is_setup, l.is_taxed])).toEqual([
      [c.plan, 297, 17.82, 314.82, false, true],
      [c.seats, 69, 5, 74, false, true],
      [c.seats, 25, 1.81, 26.81, true, true],
      [c.consulting, 375, 0, 375, false, false],
      [c.plan, 59.97, 3.6, 63.57, false, true],
      [c.metered, 12.35, 0, 12.35, false, false],
      [c.tenOff, -83.83, 0, -83.83, false, false],
    ]);
    expect(lines[0]).toMatchObject({
      invoice_id: id,
      line_rate: 99,
      line_quantity: 3,
      line_usage: 0,
      tax_taxable: 297,
      tax_taxed: 0,
      tax_id: expect.any(Number),
      tax_group_id: c.standardTax,
      tax_name: 'State tax',
      tax_group_name: 'Standard',
      item_name: 'Plan',
      item_external_key: 'plan',
      item_accounting_sku: 'PLAN',
      item_token: expect.stringMatching(/^[a-z0-9]{12}$/),
      custom_1: 'po-1',
      is_base: false,
      is_free: false,
      is_usage: false,
      is_recurring: false,
      is_latefee: false,
      is_obligation: false,
      package_line_id: null,
      line_prorate: null,
    });
    expect(lines[0].tierset_id).toEqual(expect.any(Number));
    expect(lines[1]).toMatchObject({ tax_name: 'City tax', tax_group_name: 'City', item_units: 'seat' });
    expect(lines[3]).toMatchObject({ descrip: 'Design', line_rate: 150, line_quantity: 2.5, tax_total: 0 });
    expect(lines[4]).toMatchObject({ line_rate: 19.99, tierset_id: null });
    expect(lines[6]).toMatchObject({ line_rate: 10, tax_taxable: 0, tax_id: null, tax_name: null });

    expect(inv.schedule).toEqual([
      {
        invoice_schedule_id: expect.any(Number),
        invoice_id: id,
        token: expect.stringMatching(/^[a-z0-9]{12}$/),
        paymethod: 'inv',
        creditcard_id: null,
        ach_id: null,
        tokenized_id: null,
        due_date: '2026-03-16',
        days_overdue: 0,
        amount: 782.72,
        amount_or_percent_formatted: '$ 782.72',
        balance: 782.72,
        date: '2026-03-16',
        url_paylink: expect.stringContaining(`/r/trans/pay/${inv.token}/`),
        url_ttl_paylink: expect.stringContaining(`/r/trans/pay/${inv.token}/`),
      },
    ]);
    expect(inv.sent).toEqual([]);

    const listed = (await t.get(`/api/v3/invoice?where=invoice_id:EQUALS:${id}`).expect(200)).body.response as Json[];
    const { line_items: _l, schedule: _s, sent: _sent, ...overview } = inv;
    expect(listed).toEqual([overview]);
  });

  it('does not tax a no_taxes customer, and a fixed discount is minus its base', async () => {
    const id = await createId(t, '/api/v3/invoice', {
      customer_external_key: 'acme',
      line_items: [{ item_id: c.plan }, { item_id: c.flatOff, line_quantity: 2 }],
    });
    // 99.00 + 6 % (5.94) - 30.00 = 74.94
    expect(await invoice(id)).toMatchObject({ subtotal: 69, taxes: 5.94, total: 74.94 });

    const exempt = await createId(t, '/api/v3/invoice', { customer_id: untaxed, line_items: mixedLines() });
    const inv = await invoice(exempt);
    expect(inv).toMatchObject({ subtotal: 754.49, taxes: 0, total: 754.49, terms_name: 'Net 30' });
    expect((inv.line_items as Json[]).every((l) => l.is_taxed === false && l.tax_total === 0)).toBe(true);
  });

  it('finds the customer by token, and names a bad customer reference', async () => {
    const token = (await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response.token as string;
    const id = await createId(t, '/api/v3/invoice', {
      customer_token: token,
      line_items: [{ item_id: c.metered, line_quantity: 1 }],
    });
    expect((await invoice(id)).customer_id).toBe(customer);
    await t.put(`/api/v3/invoice/${id}`, { external_key: 'inv-ext' }).expect(202);
    const byKey = (await t.get('/api/v3/invoice/external_key:inv-ext').expect(200)).body.response as Json;
    expect(byKey.invoice_id).toBe(id);
    expect((await t.get(`/api/v3/invoice/token:${byKey.token as string}`).expect(200)).body.response.invoice_id).toBe(
      id,
    );
    const dup = await t.post('/api/v3/invoice', {
      customer_id: customer,
      external_key: 'inv-ext',
      line_items: [{ item_id: c.plan }],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe('Field "external_key": a invoice with external key "inv-ext" already exists.');
    expect((await t.get('/api/v3/invoice/external_key:nope').expect(404)).body.message).toBe(
      'This invoice does not exist.',
    );
  });

  it('refuses bad input with a 400 naming the problem and writes nothing', async () => {
    const tables = ['invoice', 'invoice_line', 'invoice_schedule', 'domain_event', 'revision'];
    const before = await Promise.all(tables.map((table) => rowCount(t, table)));
    const line = [{ item_id: c.plan }];
    const cases: Array<[Json, string]> = [
      [{ customer_id: customer }, 'A required parameter was missing: "line_items"'],
      [{ customer_id: customer, line_items: [] }, 'Invalid field "line_items": at least one line item is required.'],
      [
        { customer_id: customer, line_items: [{ item_id: 99999 }] },
        'Field "line_items[0].item_id": no item with id 99999 exists.',
      ],
      [
        { customer_id: customer, line_items: [{ item_id: c.plan }, { item_id: c.plan, line_quantity: -1 }] },
        'Invalid field "line_items[1].line_quantity": must not be less than 0.',
      ],
      [
        { customer_id: customer, line_items: [{ item_id: c.plan, line_rate: 'abc' }] },
        'Invalid field "line_items[0].line_rate": must be a number.',
      ],
      [
        { customer_id: customer, line_items: [{ descrip: 'x' }] },
        'A required parameter was missing: "line_items[0].item_id".',
      ],
      [
        { customer_id: customer, line_items: [{ item_id: c.plan, line_total: 5 }] },
        'Invalid field "line_items[0].line_total": it is read-only.',
      ],
      [
        { customer_id: customer, line_items: [{ item_id: c.plan, line_item_id: 1 }] },
        'Invalid field "line_items[0].line_item_id": not a known line item field.',
      ],
      [{ customer_id: 99999, line_items: line }, 'Field "customer_id": no customer with id 99999 exists.'],
      [
        { customer_external_key: 'nope', line_items: line },
        'Field "customer_external_key": no customer with external_key "nope" exists.',
      ],
      [{ line_items: line }, 'A required parameter was missing: "customer_id"'],
      [
        { customer_id: customer, customer_token: 'x', line_items: line },
        'Send only one of customer_id, customer_token',
      ],
      [{ customer_id: customer, total: 5, line_items: line }, 'Invalid field: "total" is read-only.'],
      [{ customer_id: customer, colour: 'red', line_items: line }, 'Invalid field: "colour" is not a known field.'],
      [{ customer_id: customer, terms_id: 42, line_items: line }, 'Field "terms_id": no terms with id 42 exists.'],
      [{ customer_id: customer, date: '03/01/2026', line_items: line }, 'date'],
      [
        { customer_id: customer, line_items: [{ item_id: c.plan, paycycle: 'often' }] },
        'Invalid field "line_items[0].paycycle"',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await t.post('/api/v3/invoice', body).expect(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Error', response: false });
      expect(res.body.message).toContain(message);
    }
    expect(await Promise.all(tables.map((table) => rowCount(t, table)))).toEqual(before);
  });

  it('updates: a line sent with only line_item_id is kept, the rest replaced, totals recomputed', async () => {
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      date: '2026-03-01',
      line_items: [
        { item_id: c.plan, custom_2: 'keep me' },
        { item_id: c.consulting, line_quantity: 1 },
      ],
    });
    const before = await invoice(id);
    const kept = (before.line_items as Json[])[0];
    const dropped = (before.line_items as Json[])[1];

    await t
      .put(`/api/v3/invoice/${id}`, {
        terms_id: 3,
        memo: 'changed',
        custom_3: 'c3',
        line_items: [{ line_item_id: kept.line_item_id }, { item_id: c.metered, line_quantity: '0.5' }],
      })
      .expect(202);
    const after = await invoice(id);
    // 99.00 (kept) + 0.50 ; tax 5.94 on the kept line
    expect(after).toMatchObject({
      subtotal: 99.5,
      taxes: 5.94,
      total: 105.44,
      due_date: '2026-03-31',
      memo: 'changed',
      custom_3: 'c3',
    });
    expect((after.line_items as Json[]).map((l) => l.line_item_id)).toContain(kept.line_item_id);
    expect((after.line_items as Json[]).map((l) => l.line_item_id)).not.toContain(dropped.line_item_id);
    expect((after.line_items as Json[]).find((l) => l.line_item_id === kept.line_item_id)).toEqual(kept);
    expect(after.schedule[0]).toMatchObject({ amount: 105.44, due_date: '2026-03-31' });

    // Naming a line with new fields reprices it with them.
    await t
      .put(`/api/v3/invoice/${id}`, { line_items: [{ line_item_id: kept.line_item_id, line_quantity: 2 }] })
      .expect(202);
    const repriced = await invoice(id);
    expect(repriced).toMatchObject({ subtotal: 198, taxes: 11.88, total: 209.88 });
    expect((repriced.line_items as Json[])[0]).toMatchObject({ custom_2: 'keep me', line_quantity: 2 });

    const foreign = await t
      .put(`/api/v3/invoice/${id}`, { line_items: [{ line_item_id: dropped.line_item_id }] })
      .expect(400);
    expect(foreign.body.message).toBe(
      `Field "line_items[0].line_item_id": line ${dropped.line_item_id} is not a line of this invoice.`,
    );
    const readOnly = await t.put(`/api/v3/invoice/${id}`, { currency_id: 2 }).expect(400);
    expect(readOnly.body.message).toBe('Invalid field: "currency_id" is read-only.');
    await t.put('/api/v3/invoice/99999', { memo: 'x' }).expect(404);
    expect((await invoice(id)).total).toBe(209.88);
    const notes = (await t.get(`/api/v3/invoice/${id}/_revision`).expect(200)).body.response.map(
      (r: Json) => r.revision_note,
    );
    expect(notes).toEqual(['Invoice updated', 'Invoice updated', 'Invoice created']);
  });

  it('a zero-total invoice is paid on creation', async () => {
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      line_items: [{ item_id: c.metered, line_quantity: 0 }],
    });
    expect(await invoice(id)).toMatchObject({
      total: 0,
      balance: 0,
      is_paid: true,
      invoice_status_str: 'closed-paid',
      invoice_status_state: 'c',
      invoice_status_name: 'Paid',
    });
    const res = await t.put(`/api/v3/invoice/${id}`, { memo: 'x' }).expect(400);
    expect(res.body.message).toBe('This invoice is paid (closed-paid) and cannot be changed.');
  });

  it('filters on every query field of SPEC.md and counts', async () => {
    const a = await createId(t, '/api/v3/invoice', {
      customer_id: untaxed,
      refnumber: 'INV-A',
      date: '2026-01-05',
      currency_id: 2,
      bill_state: 'QC',
      bill_country: 'Canada',
      ship_state: 'ON',
      ship_country: 'CA',
      custom_1: 'a1',
      custom_2: 'a2',
      custom_3: 'a3',
      line_items: [
        { item_id: c.consulting, line_rate: 150, line_quantity: 1, custom_1: 'l1', custom_2: 'l2', custom_3: 'l3' },
      ],
    });
    const ids = async (where: string): Promise<number[]> =>
      (
        (await t.get(`/api/v3/invoice?limit=500&where=${encodeURIComponent(where)}`).expect(200)).body
          .response as Json[]
      ).map((i) => i.invoice_id as number);
    const token = (await invoice(a)).token as string;
    expect(await ids(`invoice_id:EQUALS:${a}`)).toEqual([a]);
    expect(await ids('refnumber:EQUALS:INV-A')).toEqual([a]);
    expect(await ids(`customer_id:EQUALS:${untaxed}`)).toContain(a);
    expect(await ids('bill_state:EQUALS:QC')).toEqual([a]);
    expect(await ids('ship_state:EQUALS:ON')).toEqual([a]);
    expect(await ids('bill_country:EQUALS:Canada')).toEqual([a]);
    expect(await ids('ship_country:EQUALS:CA')).toEqual([a]);
    expect(await ids('date:EQUALS:2026-01-05')).toEqual([a]);
    expect(await ids('currency_id:EQUALS:2')).toEqual([a]);
    expect(await ids(`token:EQUALS:${token}`)).toEqual([a]);
    expect(await ids('custom_1:EQUALS:a1,custom_2:EQUALS:a2,custom_3:EQUALS:a3')).toEqual([a]);
    expect(await ids(`line_items.item_id:EQUALS:${c.consulting},customer_id:EQUALS:${untaxed}`)).toContain(a);
    expect(await ids('line_items.custom_1:EQUALS:l1')).toEqual([a]);
    expect(await ids('line_items.custom_2:EQUALS:l2')).toEqual([a]);
    expect(await ids('line_items.custom_3:EQUALS:l3')).toEqual([a]);
    expect(await ids('package_id:IS:NULL')).toContain(a);
    expect(await ids('write_datetime:GTE:2026-03-10')).toContain(a);
    expect(await ids('mod_datetime:LT:2026-03-09')).toEqual([]);
    // Due 2026-02-04 (Net 30), so overdue today (2026-03-10): stored unpaid, read overdue.
    expect(await ids('invoice_status_str:EQUALS:open-overdue')).toEqual([a]);
    expect(await ids('invoice_status_state:EQUALS:c')).not.toContain(a);
    expect(await ids('invoice_status_state:EQUALS:o')).toContain(a);
    const overdue = await invoice(a);
    expect(overdue).toMatchObject({
      invoice_status_str: 'open-overdue',
      invoice_status_name: 'Overdue',
      is_overdue: true,
      days_overdue: 34, // 2026-02-04 -> 2026-03-10
      overdue: 150,
      due_date: '2026-02-04',
    });
    expect(overdue.schedule[0].days_overdue).toBe(34);
    expect((await t.get('/api/v3/invoice/_count?where=refnumber:EQUALS:INV-A').expect(200)).body.response).toBe(1);
    const sorted = (
      await t.get(`/api/v3/invoice?order=invoice_date:DESC&where=customer_id:EQUALS:${untaxed}`).expect(200)
    ).body.response as Json[];
    expect(sorted[sorted.length - 1].invoice_id).toBe(a);
    const bad = await t.get('/api/v3/invoice?where=total:GT:5').expect(400);
    expect(bad.body.message).toContain('Unknown field in where: "total"');
  });

  it('adds invoices to the customer total and balance', async () => {
    const fresh = await createId(t, '/api/v3/customer', { company: 'Fresh', terms_id: 1 });
    await createId(t, '/api/v3/invoice', { customer_id: fresh, line_items: [{ item_id: c.plan }] }); // 104.94
    await createId(t, '/api/v3/invoice', {
      customer_id: fresh,
      line_items: [{ item_id: c.consulting, line_quantity: '0.1' }],
    }); // 15.00
    const read = (await t.get(`/api/v3/customer/${fresh}`).expect(200)).body.response;
    expect(read).toMatchObject({ total: 119.94, balance: 119.94 });
    const listed = (await t.get(`/api/v3/customer?where=customer_id:EQUALS:${fresh}`).expect(200)).body.response;
    expect(listed[0]).toMatchObject({ total: 119.94, balance: 119.94 });
  });
});
