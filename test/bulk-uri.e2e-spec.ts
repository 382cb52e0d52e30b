import { createTestApp, TestApp } from './support/test-app';

describe('POST /_bulk: entry uris are checked before any entry runs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const bulk = (entries: unknown) => t.post('/api/v3/_bulk', entries);
  const count = async () => (await t.get('/api/v3/customer/_count').expect(200)).body.response as number;
  const create = (company: string) => ({ request_method: 'POST', uri: '/api/v3/customer', payload: { company } });

  it.each([
    ['a control character', '/api/v3/customer?where=company:\u0001x'],
    ['a C1 control character', '/api/v3/customer/\u0085'],
    ['a broken %-escape', '/api/v3/customer?where=company:%zz'],
    ['a lone surrogate', '/api/v3/customer?where=company:\ud800'],
  ])('refuses the whole request, running nothing, for a uri with %s', async (_label, uri) => {
    const before = await count();
    const res = await bulk([create('Before'), { request_method: 'GET', uri, payload: null }]).expect(400);
    expect(res.body).toEqual({
      code: 400,
      status: 'Error',
      message:
        'Invalid _bulk entry 2: "uri" holds a control character, a broken %-escape or text that is not valid Unicode.',
      details: {},
      response: false,
    });
    expect(await count()).toBe(before);
  });

  it('sends characters above U+00FF %-encoded as UTF-8, as a direct call would', async () => {
    await t.post('/api/v3/customer', { company: 'Zoë 東京' }).expect(201);
    const res = await bulk([
      create('First'),
      {
        request_method: 'GET',
        uri: "/api/v3/customer/_count?where=company:EQUALS:'Zoë 東京'".replace(' ', '%20'),
        payload: null,
      },
      { request_method: 'GET', uri: '/api/v3/customer/東京', payload: null },
    ]).expect(200);
    const results = res.body.response._bulk as Array<{ code: number; response: unknown }>;
    expect(results.map((r) => r.code)).toEqual([201, 200, 404]);
    expect(typeof results[1].response).toBe('number');
  });
});
