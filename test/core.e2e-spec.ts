import { API_USER, AUTH, createTestApp, TestApp } from './support/test-app';

function basic(user: string, pass: string): string {
  return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
}

describe('core HTTP machinery', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('authentication', () => {
    const unauthorized = {
      code: 401,
      status: 'Error',
      message: 'Authentication failed: the API username or password is missing or incorrect.',
      details: {},
      response: false,
    };

    it.each([
      ['missing', undefined],
      ['malformed base64', 'Basic !!!not-base64'],
      ['without a colon', `Basic ${Buffer.from('nocolon').toString('base64')}`],
      ['another scheme', 'Bearer abc'],
      ['a wrong password', basic(API_USER, 'wrong')],
      ['an unknown user', basic('nobody', 'x')],
    ])('answers 401 in the envelope for %s credentials', async (_label, header) => {
      const req = t.http.get('/api/v3/customer');
      if (header) req.set('Authorization', header);
      const res = await req.expect(401);
      expect(res.body).toEqual(unauthorized);
    });

    it('accepts the right credentials', async () => {
      await t.http.get('/api/v3/customer').set('Authorization', AUTH).expect(200);
    });

    it('stores only a SHA-256 digest of the secret', async () => {
      const rows = await t.dataSource.query('SELECT username, secret_sha256 FROM api_credential');
      expect(rows).toEqual([{ username: API_USER, secret_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    });
  });

  describe('envelope and routing', () => {
    it('answers the teapot with 418', async () => {
      const res = await t.get('/api/v3/teapot').expect(418);
      expect(res.body).toEqual({ code: 418, status: 'Teapot', message: "I'm a teapot.", details: {}, response: false });
    });

    it('answers an unknown path or method with 400 (invalid endpoint)', async () => {
      for (const res of [
        await t.get('/api/v3/nothing-here'),
        // DELETE /customer exists (DESIGN §6 Customer deletion); /item has no DELETE.
        await t.del('/api/v3/item/1'),
        await t.put('/api/v3/customer', {}),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 400, status: 'Error', response: false });
        expect(res.body.message).toContain('Invalid endpoint');
      }
    });

    it('tolerates a doubled slash and ignores unknown query parameters', async () => {
      const res = await t.get('//api/v3//customer/_count?_dummy=1').expect(200);
      expect(res.body).toEqual({ code: 200, status: 'OK', message: '', details: {}, response: 0 });
    });

    it('refuses a body that is not a JSON object', async () => {
      const res = await t.post('/api/v3/customer', [1, 2]).expect(400);
      expect(res.body.message).toBe('The request body must be a JSON object.');
    });

    it('refuses a too large body with a 413 envelope', async () => {
      const res = await t.post('/api/v3/customer', { company: 'x'.repeat(2_000_000) }).expect(413);
      expect(res.body).toMatchObject({ code: 413, status: 'Error', response: false });
      expect(res.body.message).toContain('larger than 1 MB');
    });
  });

  describe('reference data', () => {
    it('serves the seeded reference tables', async () => {
      expect((await t.get('/api/v3/currency').expect(200)).body.response[0]).toEqual({
        currency_id: 1,
        currency_iso4217: 'USD',
        currency_symbol: '$',
        currency_name: 'US Dollar',
      });
      const terms = (await t.get('/api/v3/terms').expect(200)).body.response;
      expect(terms.map((x: { terms_name: string }) => x.terms_name)).toEqual([
        'Due on Receipt',
        'Net 15',
        'Net 30',
        'Net 45',
        'Net 60',
      ]);
      expect((await t.get('/api/v3/brand').expect(200)).body.response).toEqual([
        { brand_id: 1, brand_name: 'Default' },
      ]);
      expect((await t.get('/api/v3/admin').expect(200)).body.response[0]).toMatchObject({ admin_id: 1 });
      expect((await t.get('/api/v3/language').expect(200)).body.response[0]).toMatchObject({
        language_id: 1,
        language_name: 'English',
      });
      expect((await t.get('/api/v3/class').expect(200)).body.response).toEqual([]);
      expect((await t.get('/api/v3/tax').expect(200)).body.response).toEqual([]);
      const countries = (await t.get('/api/v3/country').expect(200)).body.response;
      expect(countries.length).toBeGreaterThan(20);
    });
  });

  // `POST /<resource>?action=<name>` is `/<resource>/_action/<name>` (DESIGN §4): where a
  // resource has no collection actions, a 400 naming the action, never a create (each body
  // below creates when posted without the action).
  describe('a collection action where a resource has none', () => {
    const ids = { customer: 0, item: 0, tax: 0 };
    beforeAll(async () => {
      ids.customer = (await t.post('/api/v3/customer', { company: 'Actions' }).expect(201)).body.response.id;
      ids.tax = (await t.post('/api/v3/tax', { name: 'Actions tax', rate: 1 }).expect(201)).body.response.id;
      const pricemodel = { pricemodel: 'fla', base: 10, paycycle: 'mon' };
      ids.item = (await t.post('/api/v3/item', { name: 'Actions item', pricemodel }).expect(201)).body.response.id;
    });
    const bodies: Record<string, () => Record<string, unknown>> = {
      customer: () => ({ company: 'Flying' }),
      user: () => ({ customer_id: ids.customer, first_name: 'Flying' }),
      invoice: () => ({ customer_id: ids.customer, line_items: [{ item_id: ids.item, line_quantity: 1 }] }),
      item: () => ({ name: 'Flying' }),
      creditcard: () => ({
        customer_id: ids.customer,
        number: '4242424242424242',
        expdate_year: 2030,
        expdate_month: 1,
        cvv: '123',
      }),
      tax: () => ({ name: 'Flying', rate: 1 }),
      tax_group: () => ({ name: 'Flying', tax_id: ids.tax }),
    };

    it.each(Object.keys(bodies))('POST /%s?action=fly is a 400 naming the action', async (resource) => {
      const listed = async () => ((await t.get(`/api/v3/${resource}`).expect(200)).body.response as unknown[]).length;
      const before = await listed();
      const res = await t.post(`/api/v3/${resource}?action=fly`, bodies[resource]()).expect(400);
      expect(res.body).toEqual({
        code: 400,
        status: 'Error',
        message: `Unknown action "fly" for ${resource}.`,
        details: {},
        response: false,
      });
      expect((await t.post(`/api/v3/${resource}?action=`, bodies[resource]()).expect(400)).body.message).toBe(
        `Missing "action" for ${resource}.`,
      );
      expect(await listed()).toBe(before);
      // The same body without the action creates.
      await t.post(`/api/v3/${resource}`, bodies[resource]()).expect(201);
      expect(await listed()).toBe(before + 1);
    });

    it.each(['ach', 'tokenized', '_resthook'])('POST /%s?action=fly is a 400 naming the action', async (resource) => {
      const res = await t.post(`/api/v3/${resource}?action=fly`, { customer_id: ids.customer }).expect(400);
      expect(res.body.message).toBe(`Unknown action "fly" for ${resource}.`);
    });
  });
});

describe('rate limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts every route against one counter per credential and answers 429 past the limit', async () => {
    const paths = ['/api/v3/customer', '/api/v3/terms', '/api/v3/customer/_count', '/api/v3/user', '/api/v3/currency'];
    for (const [i, path] of paths.entries()) {
      const res = await t.get(path).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(4 - i));
    }
    const limited = await t.get('/api/v3/customer').expect(429);
    expect(limited.body).toMatchObject({ code: 429, status: 'Error', response: false });
    expect(limited.body.message).toContain('Rate limit exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-limit']).toBe('5');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-reset']).toBe(limited.headers['retry-after']);
  });

  it('keeps a separate counter for another credential', async () => {
    const { CredentialService } = await import('src/core/auth/credential.service');
    await t.app.get(CredentialService).upsert('second', 'second-secret');
    await t.http.get('/api/v3/customer').set('Authorization', basic('second', 'second-secret')).expect(200);
  });
});
