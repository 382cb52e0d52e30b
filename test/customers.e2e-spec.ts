import { DueWorkScheduler } from 'src/core/schedule/due-work-scheduler';
import { CustomersService } from 'src/customers/customers.service';
import { createId } from './support/catalog-fixtures';
import { spyOnStatements } from './support/statement-count';
import { fastPath } from 'src/database/fast-paths';
import { createTestApp, TestApp } from './support/test-app';

describe('customers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const createCustomer = (body: Record<string, unknown>) => createId(t, '/api/v3/customer', body);

  it('creates a customer with its main contact and reads it back in the recorded shape', async () => {
    const res = await t
      .post('/api/v3/customer', {
        external_key: 'mycustomer_id',
        company: 'Another Customer',
        superuser_email: 'customer@example.com',
        superuser_first_name: 'John',
        superuser_last_name: 'Smith',
        bill_addr1: '555 Main Street',
        bill_addr2: 'Suite 86',
        bill_state: 'Vermont',
        bill_postcode: '05401',
        bill_country: 'United States',
        custom_1: '123456',
      })
      .expect(201);
    expect(res.body).toEqual({
      code: 201,
      status: 'OK',
      message: '',
      details: {},
      response: { id: expect.any(Number) },
    });
    const id = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/customer/${id}`);

    const read = await t.get(`/api/v3/customer/${id}`).expect(200);
    const c = read.body.response;
    expect(c).toMatchObject({
      customer_id: id,
      external_key: 'mycustomer_id',
      company: 'Another Customer',
      bill_block: '555 Main Street\nSuite 86\nVermont 05401\nUnited States',
      ship_block: '',
      custom_1: '123456',
      terms_id: 3,
      terms_name: 'Net 30',
      terms_days: 30,
      currency_id: 1,
      currency_symbol: '$',
      currency_iso4217: 'USD',
      display_as: 'Another Customer',
      superuser_name: 'John Smith',
      superuser_email: 'customer@example.com',
      superuser_first_name: 'John',
      superuser_last_name: 'Smith',
      paid: 0,
      total: 0,
      balance: 0,
      mrr: 0,
      arr: 0,
      customer_status_str: 'active-current',
      customer_status_state: 'a',
      no_taxes: false,
      tags: [],
      url_self: `https://billing.example.test/api/v3/customer/${id}`,
    });
    expect(c.superuser_id).toEqual(expect.any(Number));
    expect(c.token).toMatch(/^[a-z0-9]{12}$/);
    expect(c.write_datetime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-0[56]:00$/);
  });

  it('finds a customer by external key and by token in the path', async () => {
    const id = await createCustomer({ company: 'Keyed', external_key: 'k-1' });
    const byKey = await t.get('/api/v3/customer/external_key:k-1').expect(200);
    expect(byKey.body.response.customer_id).toBe(id);
    const byToken = await t.get(`/api/v3/customer/token:${byKey.body.response.token as string}`).expect(200);
    expect(byToken.body.response.customer_id).toBe(id);
  });

  it('finds a customer by an external key with percent signs, percent-decoded once as any path', async () => {
    const pct = await createCustomer({ company: 'Percent', external_key: '100%' });
    const escaped = await createCustomer({ company: 'Escaped', external_key: 'a%20b c/d' });
    expect((await t.get('/api/v3/customer/external_key:100%25').expect(200)).body.response.customer_id).toBe(pct);
    const path = `/api/v3/customer/external_key:${encodeURIComponent('a%20b c/d')}`;
    expect((await t.get(path).expect(200)).body.response.customer_id).toBe(escaped);
    expect((await t.put(path, { company: 'Escaped 2' }).expect(202)).body.response).toEqual({ id: escaped });
    expect((await t.get(`${path}/_revision?limit=1`).expect(200)).body.response[0].context_id).toBe(escaped);
    // "a%20b c/d" is not "a b c/d": the key is not decoded a second time.
    await t.get(`/api/v3/customer/external_key:${encodeURIComponent('a b c/d')}`).expect(404);
  });

  it('answers 404 for a missing customer by id, external key or token', async () => {
    for (const ref of ['999999', 'external_key:nope', 'token:zzzzzzzzzzzz', 'abc']) {
      const res = await t.get(`/api/v3/customer/${ref}`).expect(404);
      expect(res.body).toEqual({
        code: 404,
        status: 'Error',
        message: 'This customer does not exist.',
        details: {},
        response: null,
      });
    }
  });

  it('refuses an empty create, an unknown field, a read-only field, a wrong type and a duplicate external key', async () => {
    const empty = await t.post('/api/v3/customer', {}).expect(400);
    expect(empty.body.message).toBe('A required parameter was missing: No data.');
    const unknown = await t.post('/api/v3/customer', { company: 'x', colour: 'red' }).expect(400);
    expect(unknown.body.message).toContain('"colour" is not a known field');
    const readOnly = await t.post('/api/v3/customer', { company: 'x', balance: 10 }).expect(400);
    expect(readOnly.body.message).toContain('"balance" is read-only');
    const wrongType = await t.post('/api/v3/customer', { company: 'x', no_taxes: 'maybe' }).expect(400);
    expect(wrongType.body.message).toContain('no_taxes');
    const badRef = await t.post('/api/v3/customer', { company: 'x', terms_id: 99 }).expect(400);
    expect(badRef.body.message).toContain('terms_id');
    await createCustomer({ company: 'dup', external_key: 'dup-key' });
    const dup = await t.post('/api/v3/customer', { company: 'dup2', external_key: 'dup-key' }).expect(400);
    expect(dup.body.message).toContain('external_key');
    expect((await t.get('/api/v3/customer/_count?where=company:EQUALS:dup2').expect(200)).body.response).toBe(0);
    await createCustomer({ company: 'Named user', superuser_username: 'taken-name' });
    const takenUsername = await t
      .post('/api/v3/customer', { company: 'Named user 2', superuser_username: 'taken-name' })
      .expect(400);
    expect(takenUsername.body.message).toBe('Field "superuser_username": the username "taken-name" is already taken.');
    expect((await t.get('/api/v3/customer/_count?where=company:EQUALS:Named user 2').expect(200)).body.response).toBe(
      0,
    );
  });

  it('answers 400 for invalid JSON', async () => {
    const res = await t.http
      .post('/api/v3/customer')
      .set('Authorization', (await import('./support/test-app')).AUTH)
      .set('Content-Type', 'application/json')
      .send('{"company": ')
      .expect(400);
    expect(res.body).toMatchObject({ code: 400, status: 'Error', response: false });
    expect(res.body.message).toContain('Invalid JSON');
  });

  it('updates a customer and its main contact, with 202 and Location', async () => {
    const id = await createCustomer({
      company: 'Test Customer',
      superuser_first_name: 'Test',
      superuser_last_name: 'Customer',
    });
    const res = await t
      .put(`/api/v3/customer/${id}`, {
        company: 'Updated Company Name',
        superuser_email: 'newemail@example.com',
        superuser_first_name: 'Todd',
        bill_city: 'Mashpee',
      })
      .expect(202);
    expect(res.body.response).toEqual({ id });
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/customer/${id}`);
    const c = (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;
    expect(c).toMatchObject({
      company: 'Updated Company Name',
      superuser_email: 'newemail@example.com',
      superuser_name: 'Todd Customer',
      bill_city: 'Mashpee',
    });
    const readOnlyOnUpdate = await t.put(`/api/v3/customer/${id}`, { currency_id: 2 }).expect(400);
    expect(readOnlyOnUpdate.body.message).toContain('"currency_id" is read-only');
  });

  it("splits superuser_name into the main contact's name parts, so the name follows later changes to them", async () => {
    const id = await createCustomer({ company: 'Named', superuser_name: 'Jane Q Doe' });
    const created = (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;
    expect(created).toMatchObject({
      superuser_name: 'Jane Q Doe',
      superuser_first_name: 'Jane',
      superuser_last_name: 'Doe',
    });
    const contact = (await t.get(`/api/v3/user/${created.superuser_id as number}`).expect(200)).body.response;
    expect(contact).toMatchObject({ first_name: 'Jane', middle_name_glob: 'Q', last_name: 'Doe', name: 'Jane Q Doe' });
    // As recorded (update_customer.yml): a new superuser_first_name shows in superuser_name.
    await t.put(`/api/v3/customer/${id}`, { superuser_first_name: 'Todd' }).expect(202);
    expect((await t.get(`/api/v3/customer/${id}`).expect(200)).body.response).toMatchObject({
      superuser_name: 'Todd Q Doe',
      superuser_first_name: 'Todd',
    });
    await t.put(`/api/v3/customer/${id}`, { superuser_name: 'Ann Lee', superuser_last_name: 'Smith' }).expect(202);
    expect((await t.get(`/api/v3/customer/${id}`).expect(200)).body.response).toMatchObject({
      superuser_name: 'Ann Smith',
      superuser_first_name: 'Ann',
      superuser_last_name: 'Smith',
    });
    const long = await t.put(`/api/v3/customer/${id}`, { superuser_name: 'x'.repeat(129) }).expect(400);
    expect(long.body.message).toContain('"superuser_name"');
  });

  it('connects and disconnects a parent, refusing cycles and unknown parents', async () => {
    const parent = await createCustomer({ company: 'Parent' });
    const child = await createCustomer({ company: 'Child', parent_customer_id: parent });
    expect((await t.get(`/api/v3/customer/${child}`)).body.response.parent_customer_id).toBe(parent);
    const cycle = await t.put(`/api/v3/customer/${parent}`, { parent_customer_id: child }).expect(400);
    expect(cycle.body.message).toContain('parent_customer_id');
    await t.put(`/api/v3/customer/${child}`, { parent_customer_id: 987654 }).expect(400);
    await t.put(`/api/v3/customer/${child}`, { parent_customer_id: null }).expect(202);
    expect((await t.get(`/api/v3/customer/${child}`)).body.response.parent_customer_id).toBeNull();
  });

  it('lists with where, order, paging and counts', async () => {
    for (const [company, state] of [
      ['Q Alpha', 'VT'],
      ['Q Beta', 'MA'],
      ['Q Gamma', 'VT'],
      ['Q Delta, Inc.', 'NY'],
    ]) {
      await createCustomer({ company, bill_state: state, custom_2: 'listing' });
    }
    const vt = await t
      .get('/api/v3/customer?where=bill_state:EQUALS:VT,custom_2:EQUALS:listing&order=company:DESC')
      .expect(200);
    expect(vt.body.response.map((c: { company: string }) => c.company)).toEqual(['Q Gamma', 'Q Alpha']);
    const escaped = await t.get('/api/v3/customer?where=company:EQUALS:Q Delta\\, Inc.').expect(200);
    expect(escaped.body.response).toHaveLength(1);
    const page = await t
      .get('/api/v3/customer?where=custom_2:EQUALS:listing&order=company:ASC&offset=1&limit=2')
      .expect(200);
    expect(page.body.response.map((c: { company: string }) => c.company)).toEqual(['Q Beta', 'Q Delta, Inc.']);
    const count = await t.get('/api/v3/customer/_count?where=custom_2:EQUALS:listing').expect(200);
    expect(count.body.response).toBe(4);
    const contains = await t.get('/api/v3/customer/_count?where=company:CONTAINS:amm').expect(200);
    expect(contains.body.response).toBe(1);
    const nulls = await t.get('/api/v3/customer/_count?where=custom_2:EQUALS:listing,ship_state:IS:NULL').expect(200);
    expect(nulls.body.response).toBe(4);
    const bySuperuserEmail = await t
      .get('/api/v3/customer/_count?where=superuser_email:EQUALS:customer@example.com')
      .expect(200);
    expect(bySuperuserEmail.body.response).toBe(1);
    const byState = await t
      .get('/api/v3/customer/_count?where=customer_status_state:EQUALS:a,custom_2:EQUALS:listing')
      .expect(200);
    expect(byState.body.response).toBe(4);
  });

  it('refuses unknown where fields, unknown operators and a limit over 500', async () => {
    expect((await t.get('/api/v3/customer?where=colour:EQUALS:red').expect(400)).body.message).toContain('colour');
    expect((await t.get('/api/v3/customer?where=company:LIKE:x').expect(400)).body.message).toContain('LIKE');
    expect((await t.get('/api/v3/customer?limit=501').expect(400)).body.message).toContain('limit');
    await t.get('/api/v3/customer?limit=500&_dummy=1').expect(200);
  });

  it('records revisions with the end-customer context, newest first', async () => {
    const id = await createCustomer({ company: 'Revised' });
    await t
      .put(`/api/v3/customer/${id}?on_behalf_addr=203.0.113.9&on_behalf_details=jane@example.com`, {
        company: 'Revised 2',
      })
      .expect(202);
    const res = await t.get(`/api/v3/customer/${id}/_revision?limit=1`).expect(200);
    expect(res.body.response).toHaveLength(1);
    expect(res.body.response[0]).toMatchObject({
      context_str: 'customer',
      context_id: id,
      revision_note: 'Customer updated',
      on_behalf_addr: '203.0.113.9',
      on_behalf_details: 'jane@example.com',
      integration_name: 'test-integration',
    });
    expect((await t.get(`/api/v3/customer/${id}/_revision`)).body.response).toHaveLength(2);
    await t.get(`/api/v3/customer/${id}/_revision?limit=11`).expect(400);
  });

  it('answers unknown actions with 400 in both URL forms', async () => {
    const id = await createCustomer({ company: 'Acting' });
    expect((await t.post(`/api/v3/customer/${id}?action=fly`).expect(400)).body.message).toContain('fly');
    expect((await t.post(`/api/v3/customer/${id}/_action/fly`).expect(400)).body.message).toContain('fly');
    // On the collection too: a customer is not created when an action was asked for.
    const onCollection = await t.post('/api/v3/customer?action=fly', { company: 'Flying' }).expect(400);
    expect(onCollection.body.message).toContain('"fly"');
    await t.post('/api/v3/customer?action=', { company: 'Flying' }).expect(400);
    expect((await t.get('/api/v3/customer/_count?where=company:EQUALS:Flying').expect(200)).body.response).toBe(0);
  });

  it('reads customers asked for by id in one turn with one statement, each answered as alone', async () => {
    const a = await createCustomer({ company: 'Turn A', external_key: 'turn-a' });
    const b = await createCustomer({ company: 'Turn B', external_key: 'turn-b' });
    const alone = async (id: number) => (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;
    const [readA, readB] = [await alone(a), await alone(b)];
    const customers = t.app.get(CustomersService);
    // The spy counts every statement of the process: stop the background due work (last test).
    t.app.get(DueWorkScheduler).stop();
    const statements = await spyOnStatements(t.dataSource);
    try {
      const answers = await Promise.allSettled([a, b, a, 999999].map((id) => customers.findOne(String(id))));
      // One statement for the turn; with turn batching off (DB_FAST_PATHS), one a call.
      expect(statements.count()).toBe(fastPath('turn-batch') ? 1 : 4);
      const values = answers.map((x) => (x.status === 'fulfilled' ? x.value : x.reason));
      expect(values.slice(0, 3)).toEqual([readA, readB, readA]);
      // Two asks for one customer get two objects: one caller's change is not the other's.
      expect(values[2]).not.toBe(values[0]);
      expect(values[3]).toMatchObject({ code: 404, message: 'This customer does not exist.' });
    } finally {
      statements.restore();
    }
  });
});
