import { DomainEvent } from 'src/core/events/domain-event.entity';
import { Revision } from 'src/core/revisions/revision.entity';
import { createTestApp, TestApp } from './support/test-app';

interface Entry {
  request_method: string;
  uri: string;
  payload: Record<string, unknown> | null;
  id?: string | null;
}

describe('POST /_bulk', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const bulk = (entries: unknown) => t.post('/api/v3/_bulk', entries);

  it('runs 25 entries and answers each in order inside the envelope', async () => {
    const entries: Entry[] = Array.from({ length: 25 }, (_, i) => ({
      request_method: 'POST',
      uri: '/api/v3/customer',
      payload: { company: `Bulk ${i}`, custom_3: 'bulk-25' },
      id: `c${i}`,
    }));
    const res = await bulk(entries).expect(200);
    expect(res.body).toMatchObject({ code: 200, status: 'OK', message: '', details: {} });
    const results = res.body.response._bulk as Array<{ code: number; status: string; response: { id: number } }>;
    expect(results).toHaveLength(25);
    expect(results.every((r) => r.code === 201 && r.status === 'OK')).toBe(true);
    const ids = results.map((r) => r.response.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect((await t.get('/api/v3/customer/_count?where=custom_3:EQUALS:bulk-25')).body.response).toBe(25);
  });

  it('refuses 26 entries, an empty array, a non-array body and malformed entries as a whole', async () => {
    const entry = { request_method: 'GET', uri: '/api/v3/customer', payload: null };
    expect((await bulk(Array.from({ length: 26 }, () => entry)).expect(400)).body.message).toContain('at most 25');
    expect((await bulk([]).expect(400)).body.message).toContain('empty');
    expect((await bulk({ request_method: 'GET' }).expect(400)).body.message).toContain('JSON array');
    const badMethod = await bulk([entry, { ...entry, request_method: 'PATCH' }]).expect(400);
    expect(badMethod.body.message).toBe(
      'Invalid _bulk entry 2: "request_method" must be one of GET, POST, PUT, DELETE.',
    );
    const badUri = await bulk([{ ...entry, uri: 'http://evil.example/api/v3/customer' }]).expect(400);
    expect(badUri.body.message).toContain('entry 1: "uri"');
    const nested = await bulk([{ ...entry, request_method: 'POST', uri: '/api/v3/_bulk' }]).expect(400);
    expect(nested.body.message).toContain('cannot contain another _bulk');
    const missingUri = await bulk([{ request_method: 'GET', payload: null }]).expect(400);
    expect(missingUri.body.message).toContain('"uri"');
  });

  it('returns each entry its own code while the others succeed', async () => {
    const existing = (await t.post('/api/v3/customer', { company: 'Existing', external_key: 'bulk-dup' }).expect(201))
      .body.response.id as number;
    const res = await bulk([
      { request_method: 'GET', uri: '/api/v3/customer/999999', payload: null },
      { request_method: 'PUT', uri: `/api/v3/customer/${existing}`, payload: { no_taxes: 'perhaps' } },
      { request_method: 'POST', uri: '/api/v3/customer', payload: { company: 'Dup', external_key: 'bulk-dup' } },
      { request_method: 'POST', uri: '/api/v3/customer', payload: { company: 'Fine' } },
      { request_method: 'GET', uri: `/api/v3/customer/${existing}`, payload: null },
    ]).expect(200);
    const results = res.body.response._bulk;
    expect(results.map((r: { code: number }) => r.code)).toEqual([404, 400, 400, 201, 200]);
    expect(results[0]).toEqual({
      code: 404,
      status: 'Error',
      message: 'This customer does not exist.',
      details: {},
      response: null,
    });
    expect(results[1].message).toContain('no_taxes');
    expect(results[2].message).toContain('external_key');
    expect(results[3].status).toBe('OK');
    expect(results[4].response).toMatchObject({ customer_id: existing, company: 'Existing' });
  });

  it('chains entries with JSONPath references and fails only the entry that refers to a failed one', async () => {
    const res = await bulk([
      { request_method: 'POST', uri: '/api/v3/customer', payload: { company: 'Chained' }, id: 'c1' },
      {
        request_method: 'POST',
        uri: '/api/v3/user',
        payload: { customer_id_jsonpath: 'c1:$.response.id', first_name: 'Linked' },
        id: 'u1',
      },
      { request_method: 'POST', uri: '/api/v3/customer', payload: { company: 'x', no_taxes: 'bad' }, id: 'broken' },
      {
        request_method: 'POST',
        uri: '/api/v3/user',
        payload: { customer_id_jsonpath: 'broken:$.response.id', first_name: 'Orphan' },
      },
      { request_method: 'POST', uri: '/api/v3/user', payload: { customer_id_jsonpath: 'later:$.response.id' } },
      { request_method: 'POST', uri: '/api/v3/user', payload: { customer_id_jsonpath: 'c1:$.response.nothing' } },
      { request_method: 'GET', uri: '/api/v3/teapot', payload: null, id: 'later' },
    ]).expect(200);
    const [c1, u1, broken, orphan, forward, nothing] = res.body.response._bulk;
    expect(c1.code).toBe(201);
    expect(u1.code).toBe(201);
    const contact = (await t.get(`/api/v3/user/${u1.response.id as number}`).expect(200)).body.response;
    expect(contact.customer_id).toBe(c1.response.id);
    expect(broken.code).toBe(400);
    expect(orphan).toMatchObject({ code: 400, status: 'Error', response: false });
    expect(orphan.message).toContain('"broken", which failed');
    expect(forward.message).toContain('not an earlier request');
    expect(nothing.message).toContain('finds nothing');
  });

  it('never evaluates script in a JSONPath', async () => {
    const res = await bulk([
      { request_method: 'GET', uri: '/api/v3/terms', payload: null, id: 'terms' },
      {
        request_method: 'POST',
        uri: '/api/v3/customer',
        payload: { company_jsonpath: 'terms:$..[?(@.constructor.constructor("return process")().exit(1))]' },
      },
    ]).expect(200);
    const second = res.body.response._bulk[1];
    expect(second.code).toBe(400);
    expect(second.message).toContain('no scripts or filters');
  });

  it('authenticates entries like direct calls and writes revisions and events', async () => {
    await t.http
      .post('/api/v3/_bulk')
      .send([{ request_method: 'GET', uri: '/api/v3/customer', payload: null }])
      .expect(401);
    const res = await bulk([
      { request_method: 'POST', uri: '/api/v3/customer?on_behalf_details=bulk-user', payload: { company: 'Audited' } },
    ]).expect(200);
    const id = res.body.response._bulk[0].response.id as number;
    const revision = await t.dataSource
      .getRepository(Revision)
      .findOneOrFail({ where: { context_str: 'customer', context_id: id } });
    expect(revision.integration_id).not.toBeNull();
    expect(revision.on_behalf_details).toBe('bulk-user');
    const events = await t.dataSource
      .getRepository(DomainEvent)
      .find({ where: { context_str: 'customer', context_id: String(id) } });
    expect(events.map((e) => e.event)).toEqual(['insert']);
  });

  it('ignores a forged internal-request header', async () => {
    const res = await t.http.get('/api/v3/customer').set('x-internal-request', 'forged').expect(401);
    expect(res.body.code).toBe(401);
  });
});

describe('POST /_bulk and the rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts a bulk request once, whatever it holds', async () => {
    const entries = Array.from({ length: 5 }, () => ({ request_method: 'GET', uri: '/api/v3/terms', payload: null }));
    const first = await t.post('/api/v3/_bulk', entries).expect(200);
    expect(first.body.response._bulk.every((r: { code: number }) => r.code === 200)).toBe(true);
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    await t.get('/api/v3/terms').expect(200);
    await t.post('/api/v3/_bulk', entries).expect(429);
  });
});
