import { BullJobQueue } from 'src/core/jobs/bull-job-queue';
import { JobQueue } from 'src/core/jobs/job-queue';
import { RETRY_DELAYS_MS } from 'src/webhooks/delivery/retry-schedule';
import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { createTestApp, TestApp } from '../support/test-app';
import { startReceiver, verifyStandardWebhook, WebhookReceiver } from '../support/webhook-receiver';

/** Webhook delivery through Bull (REDIS_URL set): first attempt, retry and the sweep. */
const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error('test:redis needs REDIS_URL, e.g. redis://127.0.0.1:6379');

describe('webhooks with Redis', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    t = await createTestApp({
      REDIS_URL: redisUrl,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_SECURITY_TOKEN: 'configured-shared-token',
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers through Bull jobs and retries on the Clock', async () => {
    expect(t.app.get(JobQueue)).toBeInstanceOf(BullJobQueue);
    t.clock.set(new Date('2026-08-01T00:00:00Z'));
    receiver.answer = (n) => (n === 1 ? { status: 500, body: 'busy' } : { status: 200 });
    const { id, secret } = (
      await t.post('/api/v3/_resthook', { target_url: receiver.url, event: 'customer.*' }).expect(201)
    ).body.response as { id: number; secret: string };
    const customerId = (await t.post('/api/v3/customer', { company: 'Queued' }).expect(201)).body.response.id as number;
    await t.drainJobs();
    expect(receiver.received).toHaveLength(1);

    t.clock.advance(RETRY_DELAYS_MS[0]);
    expect(await t.app.get(WebhookSweeper).sweep()).toBe(1);
    await t.drainJobs();
    expect(receiver.received).toHaveLength(2);
    const [first, second] = receiver.received;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toMatchObject({ context_str: 'customer', context_id: customerId, event: 'insert' });
    expect(verifyStandardWebhook(secret, second)).toBe(true);
    // WEBHOOK_SECURITY_TOKEN set: it is the shared token, in the header and the body.
    expect(second.headers['x-service-key']).toBe('configured-shared-token');
    expect(second.body.security_token).toBe('configured-shared-token');
    const [entry] = (await t.get(`/api/v3/_resthook/${id}/_log`).expect(200)).body.response;
    expect(entry).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(entry.attempt_log[0]).toMatchObject({ response_code: 500, response_body: 'busy' });
  });
});
