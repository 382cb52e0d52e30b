import { API_PASS, API_USER, AUTH, createTestApp, TestApp } from './support/test-app';

function basic(user: string, pass: string): string {
  return `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
}

const ATTACKER = '203.0.113.7';
const OWNER = '198.51.100.9';

describe('failed sign-ins are slowed (RFC 7617 Basic auth)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // The window and limits as shipped (DESIGN §3 AUTH_*), spelled out so the test states them.
    t = await createTestApp({
      AUTH_FAILURE_WINDOW_SECONDS: '60',
      AUTH_FAILURES_PER_ADDRESS: '30',
      AUTH_FAILURES_PER_ADDRESS_USER: '10',
      AUTH_FAILURES_PER_USER: '300',
    });
    t.clock.set(new Date('2026-11-25T12:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
  });

  const from = (address: string, authorization: string) =>
    t.http.get('/api/v3/customer').set('X-Forwarded-For', address).set('Authorization', authorization);

  it('accepts a password holding a colon only whole (the user-id ends at the first colon)', async () => {
    await from(OWNER, basic(API_USER, `${API_PASS}:anything`)).expect(401);
    await from(OWNER, `Basic ${Buffer.from(`${API_USER}:${API_PASS}`).toString('base64')} trailing`).expect(401);
    await from(OWNER, `basic ${Buffer.from(`${API_USER}:${API_PASS}`).toString('base64')}`).expect(200);
    await from(OWNER, AUTH.replace('Basic', 'NotBasic')).expect(401);
  });

  it('slows 2,000 wrong passwords from one address to 10 a minute while the owner signs in from another', async () => {
    t.clock.advance(60_000);
    const statuses = new Map<number, number>();
    const startMs = t.clock.now().getTime();
    for (let attempt = 0; attempt < 2000; attempt++) {
      const res = await from(ATTACKER, basic(API_USER, `guess-${attempt}`));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) {
        expect(res.body).toEqual({
          code: 429,
          status: 'Error',
          message: 'Too many failed sign-in attempts. Please retry after the Retry-After delay.',
          details: {},
          response: false,
        });
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
      } else {
        expect(res.status).toBe(401);
      }
      if (attempt % 100 === 0) await from(OWNER, AUTH).expect(200);
      t.clock.advance(1_000);
    }
    const minutes = Math.ceil((t.clock.now().getTime() - startMs) / 60_000) + 1;
    // Only 10 guesses a minute were checked at all; every other attempt was refused unseen.
    expect(statuses.get(401)).toBeLessThanOrEqual(10 * minutes);
    expect(statuses.get(401)).toBeGreaterThanOrEqual(10 * (minutes - 2));
    expect(statuses.get(429)).toBe(2000 - (statuses.get(401) ?? 0));
    // The right password from the barred address waits too (it cannot probe by succeeding).
    await from(ATTACKER, AUTH).expect(429);
    await from(OWNER, AUTH).expect(200);
  }, 240_000); // 2,000 sequential requests: a minute or more on a loaded CI machine

  it('bars an address by its failures over all usernames', async () => {
    t.clock.advance(60_000);
    for (let n = 0; n < 30; n++) await from('203.0.113.8', basic(`user-${n}`, 'x')).expect(401);
    await from('203.0.113.8', basic('user-31', 'x')).expect(429);
    await from(OWNER, AUTH).expect(200);
  });

  it('a guess spread over many addresses bars only addresses that failed, never a clean one', async () => {
    t.clock.advance(60_000);
    for (let n = 0; n < 300; n++) await from(`10.1.${n >> 8}.${n & 255}`, basic(API_USER, `spread-${n}`)).expect(401);
    // Over the per-username limit: an address that failed is refused before its password is checked…
    await from('10.1.0.0', AUTH).expect(429);
    // …a clean address still signs in, and a clean address with a wrong password is told 401.
    await from(OWNER, AUTH).expect(200);
    await from('10.2.0.1', basic(API_USER, 'wrong')).expect(401);
    await from('10.2.0.1', AUTH).expect(429);
    // The next window starts afresh.
    t.clock.advance(60_000);
    await from('10.1.0.0', AUTH).expect(200);
  });

  it('does not count a request without credentials as a failure', async () => {
    t.clock.advance(60_000);
    for (let n = 0; n < 40; n++) await t.http.get('/api/v3/customer').set('X-Forwarded-For', '203.0.113.9').expect(401);
    await from('203.0.113.9', AUTH).expect(200);
  });
});
