import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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
});
