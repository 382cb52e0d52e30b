import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { StallProxy } from '../support/stall-proxy';
import { AUTH, createTestApp, TestApp } from '../support/test-app';
import { startReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Redis behind a proxy the test stalls: the API keeps answering (rate limits counted in
 * process), a webhook whose queue nudge was lost waits in the database outbox and is
 * delivered once after Redis returns, none lost or doubled.
 */
const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error('test:redis needs REDIS_URL, e.g. redis://127.0.0.1:6379');

describe('a stalled Redis', () => {
  const COMMAND_TIMEOUT_MS = 500;
  let proxy: StallProxy;
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    proxy = await StallProxy.start(Number(new URL(redisUrl).port || 6379));
    t = await createTestApp({
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      RATE_LIMIT_PER_MINUTE: '1000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Loopback stands in for a proxy naming the client (X-Forwarded-For below).
      TRUST_PROXY: 'loopback',
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    proxy.resume();
    await t.close();
    await receiver.close();
    await proxy.close();
  });

  it('keeps the API answering fast, and delivers the webhooks of the stall once Redis returns', async () => {
    await t.post('/api/v3/_resthook', { target_url: receiver.url, event: 'customer.insert' }).expect(201);
    await t.post('/api/v3/customer', { company: 'Before' }).expect(201);
    await t.drainJobs();
    expect(receiver.received).toHaveLength(1);

    proxy.pause();
    const started = Date.now();
    await t.get('/api/v3/teapot').expect(418);
    await t.get('/api/v3/customer').expect(200);
    const during = (await t.post('/api/v3/customer', { company: 'During' }).expect(201)).body.response.id as number;
    for (let n = 0; n < 5; n++) await t.get('/api/v3/customer/_count').expect(200);
    // At most a few command timeouts in all: one per Redis client before it is marked down.
    expect(Date.now() - started).toBeLessThan(6 * COMMAND_TIMEOUT_MS + 2_000);
    // Failed sign-ins are still slowed, in process.
    const wrong = `Basic ${Buffer.from('test-integration:wrong').toString('base64')}`;
    for (let n = 0; n < 10; n++) await t.http.get('/api/v3/customer').set('Authorization', wrong).expect(401);
    await t.http.get('/api/v3/customer').set('Authorization', wrong).expect(429);
    await t.http.get('/api/v3/customer').set('Authorization', AUTH).set('X-Forwarded-For', '198.51.100.20').expect(200);

    proxy.resume();
    // The delivery row waited in the database; the sweeper nudges it again.
    t.clock.advance(10 * 60_000);
    await t.app.get(WebhookSweeper).sweep();
    await t.drainJobs();
    const bodies = receiver.received.map((r) => r.body as { context_id: number });
    expect(bodies.filter((b) => b.context_id === during)).toHaveLength(1);
    expect(receiver.received).toHaveLength(2);
  });
});
