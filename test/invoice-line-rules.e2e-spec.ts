import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/** Line rules on invoice create and update that keep the sums honest. */
describe('invoice line rules', () => {
  let t: TestApp;
  let c: Catalog;
  let customer: number;

  beforeAll(async () => {
    t = await createTestApp({ DATETIME_FORMAT: 'sql' });
    // 2026-03-10 12:00 in Chicago.
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customer = await createId(t, '/api/v3/customer', { company: 'Acme', terms_id: 2, no_taxes: true });
  });
  afterAll(async () => {
    await t.close();
  });

  async function invoice(id: number): Promise<Json> {
    return (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
  }

  async function refused(path: string, body: Json, method: 'post' | 'put' = 'put'): Promise<string> {
    const res = await t[method](path, body);
    expect(res.status).toBe(400);
    return res.body.message as string;
  }

  it('refuses a line named twice on update and leaves the invoice as it was', async () => {
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      line_items: [{ item_id: c.plan }, { item_id: c.consulting, line_quantity: 1 }],
    });
    const before = await invoice(id);
    const a = (before.line_items as Json[])[0].line_item_id as number;
    for (const line_items of [
      [{ line_item_id: a }, { line_item_id: a }],
      [{ line_item_id: a }, { line_item_id: a, line_quantity: 2 }],
      [{ line_item_id: a, line_quantity: 3 }, { item_id: c.metered }, { line_item_id: a }],
    ]) {
      const message = await refused(`/api/v3/invoice/${id}`, { line_items });
      const second = line_items.length - 1;
      expect(message).toBe(`Field "line_items[${second}].line_item_id": line ${a} is named more than once.`);
    }
    expect(await invoice(id)).toEqual(before);
  });

  /** A line as read, cut to the fields a client may send back. */
  function writable(line: Json, changes: Json = {}): Json {
    const keys = ['line_item_id', 'item_id', 'paycycle', 'descrip', 'line_quantity', 'custom_1'];
    return { ...Object.fromEntries(keys.map((key) => [key, line[key]])), ...changes };
  }

  it('bills a setup fee once: reading, editing a quantity and sending every line back keeps one setup line', async () => {
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      line_items: [{ item_id: c.seats, line_quantity: 12 }], // 69.00 + setup 25.00
    });
    const lines = (await invoice(id)).line_items as Json[];
    expect(lines.map((l) => [l.line_subtotal, l.is_setup])).toEqual([
      [69, false],
      [25, true],
    ]);

    // Quantity 2: 10 + 2 x 5 = 20.00; the setup line, sent back with its fields, stays 25.00.
    await t
      .put(`/api/v3/invoice/${id}`, {
        line_items: [writable(lines[0], { line_quantity: 2 }), writable(lines[1], { descrip: 'One-off setup' })],
      })
      .expect(202);
    const after = await invoice(id);
    expect((after.line_items as Json[]).map((l) => [l.item_id, l.line_subtotal, l.is_setup, l.descrip])).toEqual([
      [c.seats, 20, false, lines[0].descrip],
      [c.seats, 25, true, 'One-off setup'],
    ]);
    expect(after.total).toBe(45);

    // Repricing only the main line (the setup line kept by id) adds no setup line either.
    const [main, setup] = after.line_items as Json[];
    expect(
      await refused(`/api/v3/invoice/${id}`, { line_items: [{ line_item_id: setup.line_item_id, item_id: c.plan }] }),
    ).toBe(`Field "line_items[0].item_id": line ${setup.line_item_id} is a setup fee; its item cannot be changed.`);
    await t
      .put(`/api/v3/invoice/${id}`, {
        line_items: [{ line_item_id: main.line_item_id, line_quantity: 3 }, { line_item_id: setup.line_item_id }],
      })
      .expect(202);
    expect(((await invoice(id)).line_items as Json[]).map((l) => [l.line_subtotal, l.is_setup])).toEqual([
      [25, true],
      [25, false],
    ]);

    // A line new on this invoice bills its setup.
    await t.put(`/api/v3/invoice/${id}`, { line_items: [{ item_id: c.seats, line_quantity: 1 }] }).expect(202);
    expect(((await invoice(id)).line_items as Json[]).map((l) => [l.line_subtotal, l.is_setup])).toEqual([
      [15, false],
      [25, true],
    ]);
  });

  it('refuses amounts over 999999999999.99 (what both databases and JSON hold exactly), naming the line or line_items, and writes nothing', async () => {
    const before = (await t.get('/api/v3/invoice').expect(200)).body.response.length as number;
    const big = { item_id: c.plan, line_rate: 999999999.99, line_quantity: 1001 };
    expect(
      await refused('/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: c.plan }, big] }, 'post'),
    ).toBe('Field "line_items[1]": the line amount would exceed 999999999999.99.');
    const half = { item_id: c.plan, line_rate: 999999999.99, line_quantity: 600 }; // 599999999994.00
    expect(await refused('/api/v3/invoice', { customer_id: customer, line_items: [half, half] }, 'post')).toBe(
      'Field "line_items": the invoice total would exceed 999999999999.99.',
    );
    expect(
      await refused(
        '/api/v3/invoice',
        { customer_id: customer, line_items: [{ item_id: c.plan, line_rate: 1e9 }] },
        'post',
      ),
    ).toBe('Invalid field "line_items[0].line_rate": must not be more than 999999999.999999.');
    expect((await t.get('/api/v3/invoice').expect(200)).body.response.length).toBe(before);

    // The largest amounts that fit are stored and rendered exactly on both databases, cents included.
    const top = { item_id: c.plan, line_rate: 999999999.99, line_quantity: 1000 }; // 999999999990.00
    const cents = { item_id: c.plan, line_rate: 0.99, line_quantity: 1 };
    const id = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [top, cents] });
    const inv = await invoice(id);
    expect([inv.total, inv.line_items[0].line_rate, inv.line_items[0].line_total]).toEqual([
      999999999990.99, 999999999.99, 999999999990,
    ]);
    expect(await refused(`/api/v3/invoice/${id}`, { line_items: [half, half] })).toContain('Field "line_items": ');
  });

  it('refuses more decimals than a column keeps, naming the field', async () => {
    const line = (fields: Json) => ({ customer_id: customer, line_items: [{ item_id: c.plan, ...fields }] });
    expect(await refused('/api/v3/invoice', line({ line_rate: '1.1234567' }), 'post')).toBe(
      'Invalid field "line_items[0].line_rate": at most 6 decimals.',
    );
    expect(await refused('/api/v3/invoice', line({ line_quantity: 0.0000001 }), 'post')).toBe(
      'Invalid field "line_items[0].line_quantity": must be a number.',
    );
    expect(await refused('/api/v3/invoice', line({ line_quantity: '2.0000001' }), 'post')).toBe(
      'Invalid field "line_items[0].line_quantity": at most 6 decimals.',
    );
    const item = (tierset: Json) => ({ name: 'Odd', tiersets: [{ pricemodel: 'fla', ...tierset }] });
    for (const key of ['setup', 'base', 'minimum']) {
      expect(await refused('/api/v3/item', item({ [key]: '1.005' }), 'post')).toBe(
        `Invalid field "tiersets[0].${key}": at most 2 decimals.`,
      );
    }
    expect(await refused('/api/v3/item', item({ percent: '12.1234567' }), 'post')).toBe(
      'Invalid field "tiersets[0].percent": at most 6 decimals.',
    );
    await createId(t, '/api/v3/item', item({ base: '1.50', percent: '12.123456' }));
  });

  it('never makes a negative invoice: percent is 0..100 and discounts cannot pass the lines', async () => {
    const discount = (percent: unknown) => ({ name: 'Big off', item_type: 'discount', tiersets: [{ percent }] });
    expect(await refused('/api/v3/item', discount(150), 'post')).toBe(
      'Invalid field "tiersets[0].percent": must not be more than 100.',
    );
    const all = await createId(t, '/api/v3/item', discount('100'));
    const free = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      line_items: [{ item_id: c.plan }, { item_id: all }],
    });
    expect(await invoice(free)).toMatchObject({ total: 0, invoice_status_str: 'closed-paid' });

    // 99.00 - 7 x 15.00 = -6.00
    const over = [{ item_id: c.plan }, { item_id: c.flatOff, line_quantity: 7 }];
    expect(await refused('/api/v3/invoice', { customer_id: customer, line_items: over }, 'post')).toBe(
      'Field "line_items": the invoice total would be -6.00; it cannot be less than 0.',
    );
    const id = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: c.plan }] });
    const kept = { line_item_id: ((await invoice(id)).line_items as Json[])[0].line_item_id as number };
    expect(await refused(`/api/v3/invoice/${id}`, { line_items: [kept, over[1]] })).toBe(
      'Field "line_items": the invoice total would be -6.00; it cannot be less than 0.',
    );
    expect(await invoice(id)).toMatchObject({ total: 99, invoice_status_str: 'open-unpaid' });
  });

  it('prices an item only from its tierset in the invoice currency', async () => {
    const euros = await createId(t, '/api/v3/customer', { company: 'Euro', currency_id: 2, no_taxes: true });
    expect(await refused('/api/v3/invoice', { customer_id: euros, line_items: [{ item_id: c.plan }] }, 'post')).toBe(
      `Field "line_items[0].line_rate": item ${c.plan} has no price; send a line_rate.`,
    );
    const both = await createId(t, '/api/v3/item', {
      name: 'Both',
      tiersets: [
        { currency_id: 1, base: 10 },
        { currency_id: 2, base: 9 },
      ],
    });
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: euros,
      line_items: [{ item_id: both }, { item_id: c.plan, line_rate: 80 }],
    });
    expect(await invoice(id)).toMatchObject({ currency_id: 2, total: 89 });
    const dollars = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: both }] });
    expect(await invoice(dollars)).toMatchObject({ currency_id: 1, total: 10 });
  });

  it('an update that makes an invoice overdue stores open-overdue and records one invoice/status event', async () => {
    // 2026-03-01, Net 15: due 2026-03-16, unpaid today (2026-03-10).
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      date: '2026-03-01',
      line_items: [{ item_id: c.plan }],
    });
    const stored = async (): Promise<string> =>
      (
        await t.dataSource.query<Array<{ s: string }>>(
          `SELECT invoice_status_str AS s FROM invoice WHERE invoice_id = ${id}`,
        )
      )[0].s;
    const statusEvents = async (): Promise<number> =>
      (
        await t.dataSource.query<unknown[]>(
          `SELECT domain_event_id FROM domain_event WHERE context_str = 'invoice' AND event = 'status' AND context_id = '${id}'`,
        )
      ).length;
    expect([await stored(), await statusEvents()]).toEqual(['open-unpaid', 0]);

    await t.put(`/api/v3/invoice/${id}`, { terms_id: 1 }).expect(202); // due on receipt: 2026-03-01
    expect([await stored(), await statusEvents(), (await invoice(id)).invoice_status_str]).toEqual([
      'open-overdue',
      1,
      'open-overdue',
    ]);
    await t.put(`/api/v3/invoice/${id}`, { memo: 'still late' }).expect(202);
    expect(await statusEvents()).toBe(1);
    await t.put(`/api/v3/invoice/${id}`, { terms_id: 3 }).expect(202); // Net 30: due 2026-03-31
    expect([await stored(), await statusEvents()]).toEqual(['open-unpaid', 2]);
  });

  it('refuses a line custom field over 255 characters instead of cutting it', async () => {
    const lines = (custom_4: string) => [{ item_id: c.plan }, { item_id: c.plan, custom_4 }];
    expect(
      await refused('/api/v3/invoice', { customer_id: customer, line_items: lines('x'.repeat(256)) }, 'post'),
    ).toBe('Invalid field "line_items[1].custom_4": at most 255 characters.');
    const id = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: lines('y'.repeat(255)) });
    expect(((await invoice(id)).line_items as Json[])[1].custom_4).toBe('y'.repeat(255));
    const line = ((await invoice(id)).line_items as Json[])[0].line_item_id as number;
    expect(
      await refused(`/api/v3/invoice/${id}`, { line_items: [{ line_item_id: line, custom_1: 'z'.repeat(300) }] }),
    ).toBe('Invalid field "line_items[0].custom_1": at most 255 characters.');
  });
});
