import { createId, rowCount } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

describe('taxes and tax groups', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates taxes by name and rate (either spelling), lists and reads them', async () => {
    expect((await t.get('/api/v3/tax').expect(200)).body.response).toEqual([]);
    const res = await t.post('/api/v3/tax', { name: 'VT sales tax', rate: 6 }).expect(201);
    const vt = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/tax/${vt}`);
    const city = await createId(t, '/api/v3/tax', { tax_name: 'City', tax_rate: '7.25' });
    expect((await t.get('/api/v3/tax').expect(200)).body.response).toEqual([
      { tax_id: vt, tax_name: 'VT sales tax', tax_rate: 6 },
      { tax_id: city, tax_name: 'City', tax_rate: 7.25 },
    ]);
    expect((await t.get(`/api/v3/tax/${city}`).expect(200)).body.response).toEqual({
      tax_id: city,
      tax_name: 'City',
      tax_rate: 7.25,
    });
    expect((await t.get('/api/v3/tax/999').expect(404)).body.message).toBe('This tax does not exist.');
  });

  it('creates tax groups over a tax, which items can point at', async () => {
    const tax = await createId(t, '/api/v3/tax', { name: 'GST', rate: 5 });
    const group = await createId(t, '/api/v3/tax_group', { name: 'Canada', tax_id: tax });
    expect((await t.get(`/api/v3/tax_group/${group}`).expect(200)).body.response).toEqual({
      tax_group_id: group,
      tax_group_name: 'Canada',
      tax_id: tax,
      tax_name: 'GST',
      tax_rate: 5,
    });
    expect((await t.get('/api/v3/tax_group').expect(200)).body.response).toHaveLength(1);
    const item = await createId(t, '/api/v3/item', { name: 'Taxed', tax_group_id: group, pricemodel: { base: 10 } });
    expect((await t.get(`/api/v3/item/${item}`).expect(200)).body.response.tax_group_id).toBe(group);
    await t.get('/api/v3/tax_group/77').expect(404);
  });

  it('refuses bad taxes and groups with a 400 naming the field, writing nothing', async () => {
    const before = [await rowCount(t, 'tax'), await rowCount(t, 'tax_group')];
    const cases: Array<[string, unknown, string]> = [
      ['/api/v3/tax', { rate: 5 }, 'A required parameter was missing: "tax_name".'],
      ['/api/v3/tax', { name: 'x' }, 'A required parameter was missing: "tax_rate".'],
      ['/api/v3/tax', { name: 'x', rate: 'high' }, 'Invalid field "tax_rate": must be a number.'],
      ['/api/v3/tax', { name: 'x', rate: -1 }, 'Invalid field "tax_rate": must not be less than 0.'],
      ['/api/v3/tax', { name: 'x', rate: 101 }, 'Invalid field "tax_rate": a percentage from 0 to 100.'],
      ['/api/v3/tax', { name: '', rate: 1 }, 'Invalid field "tax_name"'],
      ['/api/v3/tax', { name: 'x', tax_name: 'y', rate: 1 }, 'Send only one of tax_name, name.'],
      ['/api/v3/tax', { name: 'x', rate: 1, country: 'US' }, 'Invalid field: "country" is not a known field.'],
      ['/api/v3/tax_group', { name: 'g', tax_id: 999 }, 'Field "tax_id": no tax with id 999 exists.'],
      ['/api/v3/tax_group', { name: 'g', tax_id: 'one' }, 'Invalid field "tax_id": must be an integer.'],
      ['/api/v3/tax_group', { tax_id: 1 }, 'A required parameter was missing: "tax_group_name".'],
    ];
    for (const [path, body, message] of cases) {
      const res = await t.post(path, body).expect(400);
      expect(res.body.message).toContain(message);
    }
    expect([await rowCount(t, 'tax'), await rowCount(t, 'tax_group')]).toEqual(before);
  });

  it('reads a body as every write does: [] is {}, every unknown field named, an alias checked as its field', async () => {
    // DESIGN §4: a PHP client's [] is an empty object, so the first missing field is named.
    expect((await t.post('/api/v3/tax', []).expect(400)).body.message).toBe(
      'A required parameter was missing: "tax_name".',
    );
    expect((await t.post('/api/v3/tax', { name: 'x', rate: 1, country: 'US', zone: 2 }).expect(400)).body.message).toBe(
      'Invalid fields: "country" is not a known field; "zone" is not a known field.',
    );
    expect(
      (await t.post('/api/v3/tax_group', { name: 'g', tax_group_name: 'h', tax_id: 1 }).expect(400)).body.message,
    ).toBe('Send only one of tax_group_name, name.');
    expect((await t.post('/api/v3/tax_group', { name: ' ', tax_id: 1 }).expect(400)).body.message).toBe(
      'Invalid field "tax_group_name": must be a non-empty string of at most 128 characters.',
    );
  });
});
