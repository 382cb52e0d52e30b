import { DomainEvent } from 'src/core/events/domain-event.entity';
import { Revision } from 'src/core/revisions/revision.entity';
import { createCatalog, createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

const CARD = { number: '4242424242424242', expdate_year: 2030, expdate_month: 5, name: 'Del Card' };
const BANK = { type: 'chec', number: '000123456789', routing: '110000000', name: 'Del Bank' };

/** DESIGN §6 "Customer deletion": nothing the books need may vanish. */
describe('DELETE /customer/<ref>', () => {
  let t: TestApp;
  let plan: number;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
    plan = (await createCatalog(t)).plan;
  });
  afterAll(async () => {
    await t.close();
  });

  const eventsOf = (context: string, id: number) =>
    t.dataSource.getRepository(DomainEvent).find({ where: { context_str: context, context_id: String(id) } });
  const notesOf = async (context: string, id: number) =>
    (await t.dataSource.getRepository(Revision).find({ where: { context_str: context, context_id: id } })).map(
      (r) => r.revision_note,
    );

  async function customerWithMethods(extra: Record<string, unknown> = {}, username = `user-${Math.random()}`) {
    const id = await createId(t, '/api/v3/customer', {
      company: 'Leaving Co',
      superuser_email: 'main@leaving.example',
      ...extra,
    });
    const main = (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response.superuser_id as number;
    const other = await createId(t, '/api/v3/user', { customer_id: id, first_name: 'Other', username });
    const card = await createId(t, '/api/v3/creditcard', { customer_id: id, ...CARD });
    const ach = await createId(t, '/api/v3/ach', { customer_id: id, ...BANK });
    return { id, main, other, card, ach };
  }

  it('deletes a customer without invoices or payments, with its contacts and payment methods', async () => {
    const c = await customerWithMethods({ external_key: 'leaving-1' }, 'other-user');
    const res = await t.del('/api/v3/customer/external_key:leaving-1').expect(200);
    expect(res.body).toEqual({ code: 200, status: 'OK', message: '', details: {}, response: true });

    const gone = await t.get(`/api/v3/customer/${c.id}`).expect(404);
    expect(gone.body).toMatchObject({ message: 'This customer does not exist.', response: null });
    await t.get(`/api/v3/user/${c.main}`).expect(404);
    await t.get(`/api/v3/user/${c.other}`).expect(404);
    await t.get(`/api/v3/creditcard/${c.card}`).expect(404);
    await t.get(`/api/v3/ach/${c.ach}`).expect(404);
    expect((await t.get(`/api/v3/customer?where=company:EQUALS:Leaving Co`).expect(200)).body.response).toEqual([]);
    await t.del(`/api/v3/customer/${c.id}`).expect(404);

    const [event] = await eventsOf('customer', c.id).then((all) => all.filter((e) => e.event === 'delete'));
    expect(Object.keys(event.data).sort()).toEqual(['customer', 'user']);
    expect(event.data.customer).toMatchObject({ customer_id: c.id, company: 'Leaving Co', external_key: 'leaving-1' });
    expect(event.data.user).toMatchObject({ user_id: c.main, email: 'main@leaving.example' });
    for (const user of [c.main, c.other]) {
      expect((await eventsOf('user', user)).map((e) => e.event)).toContain('delete');
      expect(await notesOf('user', user)).toContain('Contact deleted with its customer');
    }
    expect(await notesOf('customer', c.id)).toContain('Customer deleted');
    expect(await notesOf('creditcard', c.card)).toContain('Payment method deleted with its customer');
    expect(await notesOf('ach', c.ach)).toContain('Payment method deleted with its customer');

    // EXTERNAL_KEY_ON_DELETE=keep (the default): the key stays taken; the usernames are freed.
    const reuse = await t.post('/api/v3/customer', { company: 'Reuse', external_key: 'leaving-1' }).expect(400);
    expect(reuse.body.message).toContain('external key "leaving-1" already exists');
    await customerWithMethods({}, 'other-user');
  });

  it('refuses a customer with invoices with a 400 that says why, and changes nothing', async () => {
    const c = await customerWithMethods();
    await createId(t, '/api/v3/invoice', { customer_id: c.id, line_items: [{ item_id: plan }] });
    const res = await t.del(`/api/v3/customer/${c.id}`).expect(400);
    expect(res.body).toMatchObject({
      code: 400,
      status: 'Error',
      message: 'This customer cannot be deleted: it has 1 invoice(s), which stay on the books.',
      response: false,
    });
    expect((await t.get(`/api/v3/customer/${c.id}`).expect(200)).body.response.superuser_id).toBe(c.main);
    await t.get(`/api/v3/user/${c.other}`).expect(200);
    await t.get(`/api/v3/creditcard/${c.card}`).expect(200);
    expect((await eventsOf('customer', c.id)).map((e) => e.event)).not.toContain('delete');
  });

  it('refuses a customer with payments or credits, and a parent of other customers', async () => {
    const paid = await createId(t, '/api/v3/customer', { company: 'Has credit' });
    await createId(t, '/api/v3/transaction', {
      customer_id: paid,
      transaction_type: 'cre',
      gateway_method: 'credit',
      amount: '5.00',
      gateway_status: 1,
    });
    const res = await t.del(`/api/v3/customer/${paid}`).expect(400);
    expect(res.body.message).toBe('This customer cannot be deleted: it has 1 transaction(s), which stay on the books.');

    const parent = await createId(t, '/api/v3/customer', { company: 'Parent' });
    const child = await createId(t, '/api/v3/customer', { company: 'Child', parent_customer_id: parent });
    const refused = await t.del(`/api/v3/customer/${parent}`).expect(400);
    expect(refused.body.message).toBe(
      'This customer cannot be deleted: it is the parent of 1 customer(s); give them another parent first.',
    );
    await t.put(`/api/v3/customer/${child}`, { parent_customer_id: null }).expect(202);
    await t.del(`/api/v3/customer/${parent}`).expect(200);
  });

  it('refuses a customer with a subscription or a quote', async () => {
    const subscribed = await createId(t, '/api/v3/customer', { company: 'Subscribed' });
    await createId(t, '/api/v3/package', { customer_id: subscribed, line_items: [{ item_id: plan }] });
    expect((await t.del(`/api/v3/customer/${subscribed}`).expect(400)).body.message).toContain(
      'it has 1 subscription(s), which stay on the books',
    );
    const quoted = await createId(t, '/api/v3/customer', { company: 'Quoted' });
    await createId(t, '/api/v3/quote', { customer_id: quoted, paycycle: 'one', line_items: [{ item_id: plan }] });
    expect((await t.del(`/api/v3/customer/${quoted}`).expect(400)).body.message).toBe(
      'This customer cannot be deleted: it has 1 quote(s), which stay on the books.',
    );
  });

  it('answers 404 for an unknown customer', async () => {
    for (const ref of ['999999', 'external_key:nobody', 'token:nobody']) {
      const res = await t.del(`/api/v3/customer/${ref}`).expect(404);
      expect(res.body.message).toBe('This customer does not exist.');
    }
  });
});

describe('DELETE /customer/<ref> with EXTERNAL_KEY_ON_DELETE=mangle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ EXTERNAL_KEY_ON_DELETE: 'mangle' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('frees the key for a new customer', async () => {
    const id = await createId(t, '/api/v3/customer', { company: 'Mangled', external_key: 'reusable' });
    await t.del(`/api/v3/customer/${id}`).expect(200);
    await createId(t, '/api/v3/customer', { company: 'Next', external_key: 'reusable' });
  });
});
