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
      // The test's requests come from loopback, standing in for a proxy that names the client.
      TRUST_PROXY: 'loopback',
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

  it('never lets more than the limit through in any 60 s, across what a fixed window would call a boundary', async () => {
    t.clock.set(new Date('2026-11-26T12:00:00Z'));
    t.clock.advance(50_000); // 12:00:50, ten seconds before a minute boundary
    const checked: number[] = [];
    // One guess a second for 100 s (12:00:50 to 12:02:29) from one address for one username.
    for (let s = 0; s < 100; s++) {
      const res = await from('203.0.113.50', basic(API_USER, `boundary-${s}`));
      expect([401, 429]).toContain(res.status);
      if (res.status === 401) checked.push(t.clock.now().getTime());
      t.clock.advance(1_000);
    }
    // 10 per 60 s (AUTH_FAILURES_PER_ADDRESS_USER): seconds 0-9 checked, then none until
    // second 60, when the first one is 60 s old, then seconds 60-69. A fixed window would
    // have checked 10 more at 12:01:00 (seconds 10-19), 20 within one minute.
    expect(checked.map((at) => (at - checked[0]) / 1000)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69,
    ]);
    for (const at of checked)
      expect(checked.filter((other) => other >= at && other < at + 60_000).length).toBeLessThanOrEqual(10);
  });

  it('says how long to wait: until the oldest failure that counts is a window old', async () => {
    t.clock.advance(3_600_000);
    for (let n = 0; n < 10; n++) {
      await from('203.0.113.51', basic(API_USER, `wait-${n}`)).expect(401);
      t.clock.advance(2_000);
    }
    // Failures at 0, 2, ..., 18 s; now 20 s: the one at 0 s leaves the window at 60 s, 40 s from now.
    const res = await from('203.0.113.51', basic(API_USER, 'wait-10')).expect(429);
    expect(res.headers['retry-after']).toBe('40');
  });

  it('does not count a request without credentials as a failure', async () => {
    t.clock.advance(60_000);
    for (let n = 0; n < 40; n++) await t.http.get('/api/v3/customer').set('X-Forwarded-For', '203.0.113.9').expect(401);
    await from('203.0.113.9', AUTH).expect(200);
  });
});

describe('X-Forwarded-For is believed only from TRUST_PROXY (default: none)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ AUTH_FAILURES_PER_ADDRESS: '30', AUTH_FAILURES_PER_ADDRESS_USER: '10' });
    t.clock.set(new Date('2026-11-25T12:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts 40 guesses with rotating X-Forwarded-For against the peer: 10 answered 401, then 429', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 40; n++) {
      const res = await t.http
        .get('/api/v3/customer')
        .set('X-Forwarded-For', `198.51.100.${n}`)
        .set('Authorization', basic(API_USER, `rotating-${n}`));
      statuses.push(res.status);
    }
    // All from the one loopback peer, for one username: AUTH_FAILURES_PER_ADDRESS_USER = 10.
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
  });
});
