import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobQueue } from 'src/core/jobs/job-queue';
import { AccountSecret } from 'src/webhooks/entities/account-secret.entity';
import { createTestApp, TestApp } from '../support/test-app';
import { startReceiver, verifyStandardWebhook, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The server dies after the change committed but before its delivery job ran: the
 * delivery row is durable, and the next server to start delivers it.
 */
describe('webhook delivery across a restart', () => {
  let dir: string;
  let receiver: WebhookReceiver;
  let first: TestApp | null = null;
  let second: TestApp | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-restart-'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await second?.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers after restart what the dead server had committed', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', DB_PATH: join(dir, 'billing.sqlite') };
    first = await createTestApp(env, { keepDatabase: true });
    const { secret } = (
      await first.post('/api/v3/_resthook', { target_url: receiver.url, event: 'customer.insert' }).expect(201)
    ).body.response as { secret: string };
    // A first change is delivered normally: the shared token is generated and stored.
    await first.post('/api/v3/customer', { company: 'Before' }).expect(201);
    await first.drainJobs();
    expect(receiver.received).toHaveLength(1);
    const token = (
      await first.dataSource.getRepository(AccountSecret).findOneByOrFail({ name: 'webhook_security_token' })
    ).value;
    expect(receiver.received[0].headers['x-service-key']).toBe(token);

    // Then the process "dies" before any job runs: nothing queued is ever executed.
    const enqueue = jest.spyOn(first.app.get(JobQueue), 'enqueue').mockResolvedValue(undefined);
    const customerId = (await first.post('/api/v3/customer', { company: 'Survivor' }).expect(201)).body.response
      .id as number;
    expect(enqueue).toHaveBeenCalled();
    await first.close();
    expect(receiver.received).toHaveLength(1);

    second = await createTestApp({ ...env, DB_NAME: first.config.db.name });
    await second.drainJobs();
    expect(receiver.received).toHaveLength(2);
    const delivered = receiver.received[1];
    expect(delivered.body).toMatchObject({ context_str: 'customer', context_id: customerId, event: 'insert' });
    expect(verifyStandardWebhook(secret, delivered)).toBe(true);
    // The stored token survives the restart: the new process sends the same one.
    expect(delivered.headers['x-service-key']).toBe(token);
    expect(delivered.body.security_token).toBe(token);
    const log = (await second.get('/api/v3/webhook_log').expect(200)).body.response as Record<string, unknown>[];
    expect(log.map((e) => [e.context_id, e.status, e.attempts])).toEqual([
      [customerId, 'delivered', 1],
      [customerId - 1, 'delivered', 1],
    ]);
  });
});
