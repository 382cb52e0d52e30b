import { API_USER, createTestApp, TestApp } from './support/test-app';

const basic = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

/**
 * Sign-in goes through @nestjs/passport and passport-http's BasicStrategy, and keeps RFC
 * 7617: the user-id ends at the first colon and the password is all the rest, colons
 * included (passport-http alone would hand over "pa" for "user:pa:ss").
 */
describe('HTTP Basic through passport-http, RFC 7617 kept', () => {
  let t: TestApp;
  const password = 'pa:ss:word-0123456789';

  beforeAll(async () => {
    t = await createTestApp({ API_PASSWORD: password });
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (authorization: string) => t.http.get('/api/v3/customer').set('Authorization', authorization);

  it('signs in with a password holding colons, whole', async () => {
    const res = await as(basic(`${API_USER}:${password}`)).expect(200);
    expect(res.body).toMatchObject({ code: 200, status: 'OK', response: [] });
    // Again: the credential cache answers a header that signed in before.
    await as(basic(`${API_USER}:${password}`)).expect(200);
  });

  it('refuses what passport-http alone would have read as the password', async () => {
    for (const pair of [`${API_USER}:pa`, `${API_USER}:pa:ss`, `${API_USER}:${password}:`]) {
      const res = await as(basic(pair)).expect(401);
      expect(res.body.message).toBe('Authentication failed: the API username or password is missing or incorrect.');
    }
  });

  it('answers 401 in the envelope for a header passport-http refuses before the verify step', async () => {
    for (const header of [basic(`${API_USER}:`), basic(`:${password}`), basic('nocolon'), 'Basic', 'Digest abc']) {
      const res = await as(header).expect(401);
      expect(res.body).toMatchObject({ code: 401, status: 'Error', response: false });
    }
    await t.http.get('/api/v3/customer').expect(401);
  });

  it('leaves @Public routes open', async () => {
    await t.http.get('/healthz').expect(200);
  });

  it('names the signed-in credential on what it writes (req.user)', async () => {
    const auth = basic(`${API_USER}:${password}`);
    const created = await t.http.post('/api/v3/customer').set('Authorization', auth).send({ company: 'Passported' });
    expect(created.status).toBe(201);
    const id = created.body.response.id as number;
    const revisions = await t.http.get(`/api/v3/customer/${id}/_revision?limit=1`).set('Authorization', auth);
    expect(revisions.body.response).toHaveLength(1);
    expect(JSON.stringify(revisions.body.response[0])).toContain(API_USER);
  });

  it('checks each application against its own credentials (passport registers strategies process-wide)', async () => {
    const other = await createTestApp({ API_PASSWORD: 'other-secret-0123456789' });
    try {
      await other.http
        .get('/api/v3/customer')
        .set('Authorization', basic(`${API_USER}:other-secret-0123456789`))
        .expect(200);
      await other.http
        .get('/api/v3/customer')
        .set('Authorization', basic(`${API_USER}:${password}`))
        .expect(401);
      await as(basic(`${API_USER}:${password}`)).expect(200);
    } finally {
      await other.close();
    }
    // The application built last is gone: this one still signs in against its own table.
    await as(basic(`${API_USER}:${password}`)).expect(200);
  });
});
