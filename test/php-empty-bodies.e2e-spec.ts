import { createCatalog, createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

/** PHP clients encode an empty object as `[]` (DESIGN §4 Actions): wherever an object is expected it means `{}`. */
describe('PHP-style empty bodies', () => {
  let t: TestApp;
  let plan: number;

  beforeAll(async () => {
    t = await createTestApp();
    plan = (await createCatalog(t)).plan;
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads a whole body [] as {} on updates, creates and actions', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Php Co', superuser_email: 'php@example.com' });
    await t.put(`/api/v3/customer/${customer}`, []).expect(202);
    // A create with nothing in it is refused as an empty object is.
    const empty = await t.post('/api/v3/customer', []).expect(400);
    expect(empty.body.message).toBe('A required parameter was missing: No data.');

    const user = (await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response.superuser_id as number;
    await t.post(`/api/v3/user/${user}?action=password&_flag_emails=0`, []).expect(200);

    const invoice = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: plan }] });
    await t.post(`/api/v3/invoice/${invoice}?action=print`, []).expect(200);
    await t.post(`/api/v3/invoice/${invoice}?action=void`, []).expect(200);
    expect((await t.get(`/api/v3/invoice/${invoice}`).expect(200)).body.response.invoice_status_str).toBe(
      'closed-void',
    );
  });

  it('reads a nested [] as {} where an object is expected', async () => {
    const asArray = await createId(t, '/api/v3/item', { name: 'Free plan A', pricemodel: [] });
    const asObject = await createId(t, '/api/v3/item', { name: 'Free plan B', pricemodel: {} });
    const tiersets = async (id: number) =>
      ((await t.get(`/api/v3/item/${id}`).expect(200)).body.response.tiersets as Array<Record<string, unknown>>).map(
        ({ pricemodel, base, paycycle }) => ({ pricemodel, base, paycycle }),
      );
    expect(await tiersets(asArray)).toEqual(await tiersets(asObject));
    expect(await tiersets(asArray)).toEqual([{ pricemodel: 'fla', base: 0, paycycle: 'mon' }]);
  });

  it('keeps a non-empty array where an object is expected a 400 naming the field', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Arrays' });
    const whole = await t.put(`/api/v3/customer/${customer}`, [{ company: 'x' }]).expect(400);
    expect(whole.body.message).toBe('The request body must be a JSON object.');
    const line = await t.post('/api/v3/invoice', { customer_id: customer, line_items: [[plan]] }).expect(400);
    expect(line.body.message).toBe('Invalid field "line_items[0]": must be an object.');
    const pricing = await t.post('/api/v3/item', { name: 'Bad pricing', pricemodel: ['fla'] }).expect(400);
    expect(pricing.body.message).toBe('Invalid field "pricemodel": must be an object.');
    const bulk = await t
      .post('/api/v3/_bulk', [{ request_method: 'PUT', uri: `/api/v3/customer/${customer}`, payload: [1] }])
      .expect(400);
    expect(bulk.body.message).toBe('Invalid _bulk entry 1: "payload" must be an object or null.');
  });

  it('runs a _bulk of four entries where one payload is []', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Bulk Php' });
    const res = await t
      .post('/api/v3/_bulk', [
        { request_method: 'POST', uri: '/api/v3/customer', payload: { company: 'Bulk New' }, id: 'new' },
        { request_method: 'PUT', uri: `/api/v3/customer/${customer}`, payload: [] },
        { request_method: 'PUT', uri: `/api/v3/customer/${customer}`, payload: { company: 'Bulk Renamed' } },
        { request_method: 'GET', uri: `/api/v3/customer/${customer}`, payload: null },
      ])
      .expect(200);
    const results = res.body.response._bulk as Array<{ code: number; status: string; response: unknown }>;
    expect(results.map((r) => r.code)).toEqual([201, 202, 202, 200]);
    expect(results[1].response).toEqual({ id: customer });
    expect((results[3].response as { company: string }).company).toBe('Bulk Renamed');
  });
});
