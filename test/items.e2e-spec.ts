import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

describe('items', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DATETIME_FORMAT: 'sql' });
  });
  afterAll(async () => {
    await t.close();
  });

  const createItem = (body: Record<string, unknown>) => createId(t, '/api/v3/item', body);

  it('creates an item from one pricemodel object and reads it back in the recorded shape', async () => {
    const res = await t
      .post('/api/v3/item', {
        type: 'service',
        name: 'Test Product',
        pricemodel: { base: 100.99, paycycle: 'mon', pricemodel: 'fla' },
      })
      .expect(201);
    const id = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/item/${id}`);

    const item = (await t.get(`/api/v3/item/${id}`).expect(200)).body.response;
    expect(item).toMatchObject({
      item_id: id,
      item_type: 'service',
      name: 'Test Product',
      description: null,
      units: null,
      accounting_sku: null,
      external_key: null,
      custom_1: null,
      units_plural: '',
      enabled: true,
      service_data: { trial_days: 0, trial_units: 0, is_usage: false },
      categories: [],
      tiersets: [
        {
          currency_id: 1,
          setup: 0,
          base: 100.99,
          minimum: 0,
          percent: '0.000000', // a string, as the recorded traffic has it
          paycycle: 'mon',
          pricemodel: 'fla',
          currency_symbol: '$',
          currency_iso4217: 'USD',
          setup_formatted: '$ 0.00',
          base_formatted: '$ 100.99',
          minimum_formatted: '$ 0.00',
          percent_formatted: '0 %',
          pricemodel_desc: 'Flat Pricing (e.g. $X dollars per month)',
          tiers: [],
        },
      ],
    });
    expect(item.tierset_id).toBe(item.tiersets[0].tierset_id);
    expect(item.token).toMatch(/^[a-z0-9]{12}$/);
    expect(item.write_datetime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Object.keys(item).slice(0, 6)).toEqual([
      'item_id',
      'item_type',
      'tierset_id',
      'name',
      'description',
      'units',
    ]);
  });

  it('stores tiersets with tiers for every price model, numeric strings accepted', async () => {
    const id = await createItem({
      item_type: 'product',
      name: 'Seats',
      units: 'seat',
      units_plural: 'seats',
      accounting_sku: 'SKU-SEATS',
      external_key: 'seats',
      custom_2: 7,
      tiersets: [
        {
          pricemodel: 'tie',
          paycycle: 'yrl',
          setup: '25',
          base: '10',
          minimum: '20',
          tiers: [
            { unit_from: 1, unit_to: 10, amount: '5' },
            { unit_from: 11, unit_to: null, amount: 4.5 },
          ],
        },
      ],
    });
    const item = (await t.get(`/api/v3/item/external_key:seats`).expect(200)).body.response;
    expect(item).toMatchObject({ item_id: id, item_type: 'product', units: 'seat', custom_2: '7' });
    expect(item.tiersets[0]).toMatchObject({
      pricemodel: 'tie',
      pricemodel_desc: 'Tiered Pricing',
      setup: 25,
      base: 10,
      minimum: 20,
      setup_formatted: '$ 25.00',
      minimum_formatted: '$ 20.00',
      paycycle: 'yrl',
    });
    expect(item.tiersets[0].tiers).toEqual([
      expect.objectContaining({ unit_from: 1, unit_to: 10, amount: 5 }),
      expect.objectContaining({ unit_from: 11, unit_to: null, amount: 4.5 }),
    ]);
    for (const [model, desc] of [
      ['uni', 'Unit Pricing (e.g. $X per unit per month)'],
      ['vol', 'Volume Pricing'],
      ['pas', 'Pass-through Pricing'],
    ]) {
      const tiers = model === 'pas' ? [] : [{ unit_from: 1, unit_to: null, amount: 2 }];
      const mid = await createItem({ name: `m-${model}`, pricemodel: { pricemodel: model, tiers } });
      const read = (await t.get(`/api/v3/item/${mid}`).expect(200)).body.response;
      expect(read.tiersets[0].pricemodel_desc).toBe(desc);
    }
    const discount = await createItem({ name: '10% off', item_type: 'discount', pricemodel: { percent: 10 } });
    const read = (await t.get(`/api/v3/item/${discount}`).expect(200)).body.response;
    expect(read.tiersets[0]).toMatchObject({ percent: '10.000000', percent_formatted: '10 %', paycycle: 'mon' });
  });

  it('refuses bad tiers, bad models and bad fields with a 400 naming them, writing nothing', async () => {
    const before = (await t.get('/api/v3/item/_count').expect(200)).body.response as number;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ pricemodel: { base: 1 } }, 'A required parameter was missing: "name".'],
      [
        { name: 'x', pricemodel: { pricemodel: 'tie', tiers: [{ unit_from: 2, unit_to: null, amount: 1 }] } },
        'Invalid field "pricemodel.tiers": tier 1 must start at unit 1 (tiers are contiguous from 1).',
      ],
      [
        {
          name: 'x',
          tiersets: [
            {
              pricemodel: 'vol',
              tiers: [
                { unit_from: 1, unit_to: 10, amount: 1 },
                { unit_from: 12, unit_to: null, amount: 1 },
              ],
            },
          ],
        },
        'Invalid field "tiersets[0].tiers": tier 2 must start at unit 11 (tiers are contiguous from 1).',
      ],
      [{ name: 'x', pricemodel: { pricemodel: 'uni' } }, 'the "uni" price model needs at least one tier'],
      [{ name: 'x', pricemodel: { pricemodel: 'abc' } }, 'Invalid field "pricemodel.pricemodel"'],
      [{ name: 'x', pricemodel: { base: 'lots' } }, 'Invalid field "pricemodel.base": must be a number.'],
      [{ name: 'x', pricemodel: { base: -1 } }, 'Invalid field "pricemodel.base": must not be less than 0.'],
      [{ name: 'x', pricemodel: { paycycle: 'weekly' } }, 'Invalid field "pricemodel.paycycle"'],
      [{ name: 'x', item_type: 'thing' }, 'item_type'],
      [{ name: 'x', tax_group_id: 999 }, 'Field "tax_group_id": no tax group with id 999 exists.'],
      [{ name: 'x', colour: 'red' }, 'Invalid field: "colour" is not a known field.'],
      [{ name: 'x', tierset_id: 3 }, 'Invalid field: "tierset_id" is read-only.'],
      [{ name: 'x', pricemodel: {}, tiersets: [] }, 'Send pricing as either "tiersets" or "pricemodel", not both.'],
      [{ name: 'x', pricemodel: { currency_id: 99 } }, 'Field "currency_id": no currency with id 99 exists.'],
    ];
    for (const [body, message] of cases) {
      const res = await t.post('/api/v3/item', body).expect(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Error', response: false });
      expect(res.body.message).toContain(message);
    }
    await createItem({ name: 'dup', external_key: 'dup-key' });
    const dup = await t.post('/api/v3/item', { name: 'dup2', external_key: 'dup-key' }).expect(400);
    expect(dup.body.message).toContain('external key "dup-key" already exists');
    expect((await t.get('/api/v3/item/_count').expect(200)).body.response).toBe(before + 1);
  });

  it('updates with 202; new pricing retires the old tierset, other fields keep it', async () => {
    const id = await createItem({ name: 'Plan', pricemodel: { base: 99, paycycle: 'mon' } });
    const first = (await t.get(`/api/v3/item/${id}`).expect(200)).body.response;

    const res = await t.put(`/api/v3/item/${id}`, { description: 'The plan', enabled: false }).expect(202);
    expect(res.body.response).toEqual({ id });
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/item/${id}`);
    const same = (await t.get(`/api/v3/item/${id}`).expect(200)).body.response;
    expect(same).toMatchObject({ description: 'The plan', enabled: false, tierset_id: first.tierset_id });

    await t.put(`/api/v3/item/${id}`, { pricemodel: { base: '120.50', paycycle: 'yrl' } }).expect(202);
    const repriced = (await t.get(`/api/v3/item/${id}`).expect(200)).body.response;
    expect(repriced.tiersets).toHaveLength(1);
    expect(repriced.tiersets[0]).toMatchObject({ base: 120.5, paycycle: 'yrl', base_formatted: '$ 120.50' });
    expect(repriced.tierset_id).not.toBe(first.tierset_id);

    await t.put('/api/v3/item/99999', { name: 'x' }).expect(404);
    const missing = await t.get('/api/v3/item/99999').expect(404);
    expect(missing.body.message).toBe('This item does not exist.');
    const revisions = (await t.get(`/api/v3/item/${id}/_revision`).expect(200)).body.response;
    expect(revisions.map((r: { revision_note: string }) => r.revision_note)).toEqual([
      'Item updated',
      'Item updated',
      'Item created',
    ]);
  });

  it('lists with tiersets, filters on every item query field, counts and pages', async () => {
    const a = await createItem({
      name: 'Alpha widget',
      item_type: 'product',
      accounting_sku: 'A-1',
      custom_1: 'red',
      custom_3: 'z',
      pricemodel: { base: 1 },
    });
    const b = await createItem({ name: 'Beta widget', enabled: false, custom_2: 'blue', pricemodel: { base: 2 } });
    const ids = async (where: string) =>
      (
        (await t.get(`/api/v3/item?where=${encodeURIComponent(where)}&limit=500`).expect(200)).body.response as Array<{
          item_id: number;
        }>
      ).map((i) => i.item_id);

    expect(await ids(`item_id:EQUALS:${a}`)).toEqual([a]);
    expect(await ids('name:CONTAINS:widget')).toEqual([a, b]);
    expect(await ids('item_type:EQUALS:product,name:CONTAINS:widget')).toEqual([a]);
    expect(await ids('accounting_sku:EQUALS:A-1')).toEqual([a]);
    expect(await ids('enabled:EQUALS:false')).toEqual(expect.arrayContaining([b]));
    expect(await ids('enabled:EQUALS:false')).not.toContain(a);
    expect(await ids('custom_1:EQUALS:red')).toEqual([a]);
    expect(await ids('custom_2:EQUALS:blue')).toEqual([b]);
    expect(await ids('custom_3:EQUALS:z')).toEqual([a]);
    const token = (await t.get(`/api/v3/item/${a}`).expect(200)).body.response.token as string;
    expect(await ids(`token:EQUALS:${token}`)).toEqual([a]);
    expect(await ids('external_key:EQUALS:seats')).toHaveLength(1);
    expect(await ids('write_datetime:GTE:2000-01-01')).toContain(a);
    expect(await ids('mod_datetime:LT:2000-01-01')).toEqual([]);

    const list = (await t.get('/api/v3/item?where=name:CONTAINS:widget').expect(200)).body.response;
    expect(list[0].tiersets[0]).toMatchObject({ base: 1, pricemodel: 'fla' });
    expect(list[1].tiersets[0]).toMatchObject({ base: 2 });
    expect((await t.get('/api/v3/item/_count?where=name:CONTAINS:widget').expect(200)).body.response).toBe(2);
    const page = (await t.get('/api/v3/item?where=name:CONTAINS:widget&limit=1&offset=1').expect(200)).body.response;
    expect(page.map((i: { item_id: number }) => i.item_id)).toEqual([b]);
    const bad = await t.get('/api/v3/item?where=price:EQUALS:1').expect(400);
    expect(bad.body.message).toContain('Unknown field in where: "price"');
  });
});
