import { AUTH } from '../support/test-app';
import { killServer, scratchDatabase, ServerProcess, startServer } from '../support/server-process';
import { startReceiver, WebhookReceiver } from '../support/webhook-receiver';

/**
 * docs/deployment.md's layout, for real: two API processes and one worker on one MariaDB
 * and one Redis (runs only through `npm run test:redis`, REDIS_URL set).
 */
const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error('test:redis needs REDIS_URL, e.g. redis://127.0.0.1:6379');

jest.setTimeout(300_000);

/** Long enough for the worker's webhook sweeper (every 2 s) to have re-sent a delivery twice over. */
const QUIET_MS = 5_000;

async function call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('two API instances and one worker (MariaDB, Redis)', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  let receiver: WebhookReceiver;
  const servers: ServerProcess[] = [];
  let api1: ServerProcess;
  let api2: ServerProcess;
  let worker: ServerProcess;

  beforeAll(async () => {
    db = await scratchDatabase('mysql');
    receiver = await startReceiver();
    const common = {
      ...db.env,
      REDIS_URL: redisUrl,
      RATE_LIMIT_PER_MINUTE: '6',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      BILLING_CRON: '*/5 * * * *',
    };
    // The worker runs the migrations once; the API instances never do (docs/deployment.md).
    worker = await startServer({ ...common, APP_ROLE: 'worker', DB_MIGRATIONS_RUN: 'true' });
    servers.push(worker);
    [api1, api2] = await Promise.all([
      startServer({ ...common, APP_ROLE: 'api', DB_MIGRATIONS_RUN: 'false' }),
      startServer({ ...common, APP_ROLE: 'api', DB_MIGRATIONS_RUN: 'false' }),
    ]);
    servers.push(api1, api2);
  });
  afterAll(async () => {
    for (const server of servers) await killServer(server);
    await receiver.close();
    await db.drop();
  });

  it('delivers a webhook once, shares the rate limit and runs scheduled work once', async () => {
    // Webhook: hook made on one instance, event on the other, delivered by the worker once.
    expect(
      (await call(api1, 'POST', '/api/v3/_resthook', { target_url: receiver.url, event: 'customer.insert' })).status,
    ).toBe(201);
    expect((await call(api2, 'POST', '/api/v3/customer', { company: 'Scaled Out' })).status).toBe(201);
    const deadline = Date.now() + 60_000;
    while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, QUIET_MS));
    expect(receiver.received).toHaveLength(1);
    const log = (await (await call(api1, 'GET', '/api/v3/webhook_log')).json()) as {
      response: Array<{ status: string; attempts: number }>;
    };
    expect(log.response).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);

    // Rate limit: 6 per minute per credential across both instances (3 requests used above).
    expect((await call(api2, 'GET', '/api/v3/terms')).status).toBe(200);
    expect((await call(api1, 'GET', '/api/v3/terms')).status).toBe(200);
    expect((await call(api2, 'GET', '/api/v3/terms')).status).toBe(200);
    expect((await call(api1, 'GET', '/api/v3/terms')).status).toBe(429);
    expect((await call(api2, 'GET', '/api/v3/terms')).status).toBe(429);

    // Scheduled work: the nightly job ran at the worker's start, and on no API instance.
    const nightly = (server: ServerProcess): number => server.output().split('Nightly run ').length - 1;
    expect(nightly(worker)).toBe(1);
    expect(nightly(api1) + nightly(api2)).toBe(0);
  });
});
