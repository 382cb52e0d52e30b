import { AccountSecret } from 'src/webhooks/entities/account-secret.entity';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { WebhookDeliverer } from 'src/webhooks/delivery/webhook-deliverer';
import { JobQueue } from 'src/core/jobs/job-queue';
import { RETRY_DELAYS_MS } from 'src/webhooks/delivery/retry-schedule';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';
import { ReceivedWebhook, startReceiver, verifyStandardWebhook, WebhookReceiver } from './support/webhook-receiver';

const ISO_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

/** SPEC "Events": data keys per event of the modules that exist now. */
const DATA_KEYS: Record<string, string[]> = {
  'customer.insert': ['customer', 'user'],
  'customer.update': ['customer', 'user'],
  'customer.join': ['customer', 'user', 'user_id'],
  'customer.super': ['customer', 'user', 'user_id'],
  'user.insert': ['the_users_password', 'user'],
  'user.update': ['user'],
  'user.delete': ['user'],
};

describe('webhooks', () => {
  let t: TestApp;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterEach(async () => {
    // Hooks are account-wide: each test starts with none.
    const hooks = (await t.get('/api/v3/_resthook?limit=500').expect(200)).body.response as { resthook_id: number }[];
    for (const hook of hooks) await t.del(`/api/v3/_resthook/${hook.resthook_id}`).expect(200);
    t.clock.reset();
  });
  afterAll(async () => {
    await t.close();
    for (const receiver of receivers) await receiver.close();
  });

  async function receiver(): Promise<WebhookReceiver> {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  }

  async function hook(targetUrl: string, event: string): Promise<{ id: number; secret: string }> {
    return (await t.post('/api/v3/_resthook', { target_url: targetUrl, event }).expect(201)).body.response as {
      id: number;
      secret: string;
    };
  }

  async function sweep(): Promise<number> {
    const queued = await t.app.get(WebhookSweeper).sweep();
    await t.drainJobs();
    return queued;
  }

  async function newCustomer(query = ''): Promise<number> {
    const id = await make.newCustomer(
      t,
      { company: 'Hooked', superuser_email: `c${Math.random()}@example.com` },
      query,
    );
    await t.drainJobs();
    return id;
  }

  describe('hooks', () => {
    it('creates a hook with a secret shown once, reads, lists and deletes it', async () => {
      const res = await t
        .post('/api/v3/_resthook', { target_url: 'http://127.0.0.1:9/x', event: 'invoice.insert', nickname: 'erp' })
        .expect(201);
      const { id, secret } = res.body.response as { id: number; secret: string };
      expect(Object.keys(res.body.response)).toEqual(['id', 'secret']);
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(res.headers.location).toBe(`https://billing.example.test/api/v3/_resthook/${id}`);

      const one = (await t.get(`/api/v3/_resthook/${id}`).expect(200)).body.response;
      expect(one).toEqual({
        resthook_id: id,
        target_url: 'http://127.0.0.1:9/x',
        event: 'invoice.insert',
        nickname: 'erp',
        write_datetime: expect.stringMatching(ISO_DATETIME),
        url_self: `https://billing.example.test/api/v3/_resthook/${id}`,
      });
      expect(JSON.stringify(one)).not.toContain(secret);
      await hook('http://127.0.0.1:9/y', 'customer.*');
      await hook('http://127.0.0.1:9/z', '*');
      const all = (await t.get('/api/v3/_resthook').expect(200)).body.response as Record<string, unknown>[];
      expect(all.map((h) => h.event)).toEqual(['invoice.insert', 'customer.*', '*']);
      expect(JSON.stringify(all)).not.toContain('whsec_');
      const filtered = (await t.get('/api/v3/_resthook?where=event:EQUALS:customer.*').expect(200)).body.response;
      expect(filtered).toHaveLength(1);

      expect((await t.del(`/api/v3/_resthook/${id}`).expect(200)).body.response).toBe(true);
      const gone = await t.get(`/api/v3/_resthook/${id}`).expect(404);
      expect(gone.body.message).toBe('This resthook does not exist.');
      await t.del(`/api/v3/_resthook/${id}`).expect(404);
      await t.get('/api/v3/_resthook/abc').expect(404);
    });

    it.each([
      [{ event: '*' }, 'target_url'],
      [{ target_url: 'http://127.0.0.1:9/' }, 'event'],
      [
        { target_url: 'http://127.0.0.1:9/', event: 'invoice.paid' },
        'Invalid field "event": has an unknown event "paid"',
      ],
      [{ target_url: 'http://127.0.0.1:9/', event: 'widget.*' }, 'Invalid field "event": has an unknown context'],
      [{ target_url: 'http://127.0.0.1:9/', event: 'customer' }, 'Invalid field "event"'],
      [{ target_url: 'ftp://example.com/', event: '*' }, 'Invalid field "target_url": must use https'],
      [{ target_url: 'http://127.0.0.1:9/', event: '*', secret: 'mine' }, '"secret" is read-only'],
      [{ target_url: 'http://127.0.0.1:9/', event: '*', color: 'red' }, '"color" is not a known field'],
      [{ target_url: 42, event: '*' }, 'target_url'],
    ])('refuses %j naming the field', async (body, message) => {
      const res = await t.post('/api/v3/_resthook', body).expect(400);
      expect(res.body.status).toBe('Error');
      expect(res.body.message).toContain(message);
    });
  });

  describe('delivery', () => {
    it('delivers every customer and user event, signed, with the envelope and data keys of SPEC', async () => {
      const r = await receiver();
      const { secret } = await hook(r.url, '*');
      const customerId = await newCustomer();
      await t.put(`/api/v3/customer/${customerId}`, { company: 'Hooked 2' }).expect(202);
      const firstUser = (await t.get(`/api/v3/customer/${customerId}`)).body.response.superuser_id as number;
      const second = (
        await t.post('/api/v3/user', { customer_id: customerId, email: 'second@example.com' }).expect(201)
      ).body.response.id as number;
      await t.put(`/api/v3/customer/${customerId}`, { superuser_id: second }).expect(202);
      await t.put(`/api/v3/user/${second}`, { first_name: 'Sec' }).expect(202);
      await t.del(`/api/v3/user/${firstUser}`).expect(200);
      await t.drainJobs();

      const kinds = r.received.map((w) => `${w.body.context_str}.${w.body.event}`).sort();
      expect(kinds).toEqual(
        [
          'customer.insert',
          'user.insert',
          'customer.update',
          'user.insert',
          'customer.join',
          'customer.update',
          'customer.super',
          'user.update',
          'user.delete',
        ].sort(),
      );
      const token = (
        await t.dataSource.getRepository(AccountSecret).findOneByOrFail({ name: 'webhook_security_token' })
      ).value;
      expect(token.length).toBeGreaterThanOrEqual(32);
      const messageIds = new Set<string>();
      for (const w of r.received) {
        const kind = `${w.body.context_str}.${w.body.event}`;
        expect(Object.keys(w.body)).toEqual(['context_str', 'context_id', 'event', 'data', 'security_token']);
        expect(Object.keys(w.body.data).sort()).toEqual(DATA_KEYS[kind]);
        expect(w.body.security_token).toBe(token);
        expect(w.headers['x-service-key']).toBe(token);
        expect(w.headers['x-service-source']).toBe('billing.example.test');
        expect(w.headers['content-type']).toBe('application/json');
        expect(w.headers['webhook-id']).toMatch(/^msg_[a-z0-9]{24}$/);
        expect(w.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
        expect(verifyStandardWebhook(secret, w)).toBe(true);
        expect(verifyStandardWebhook(`whsec_${Buffer.alloc(32).toString('base64')}`, w)).toBe(false);
        messageIds.add(w.headers['webhook-id'] as string);
        const idOf = w.body.context_str === 'customer' ? customerIdOf(w) : userIdOf(w);
        expect(w.body.context_id).toBe(idOf);
      }
      expect(messageIds.size).toBe(r.received.length);
      const insert = r.received.find((w) => w.body.context_str === 'customer' && w.body.event === 'insert')!;
      expect(insert.body.context_id).toBe(customerId);
      const customer = insert.body.data.customer as Record<string, unknown>;
      expect(customer).toMatchObject({ customer_id: customerId, company: 'Hooked' });
      expect(customer.write_datetime).toMatch(ISO_DATETIME);
      const join = r.received.find((w) => w.body.event === 'join')!;
      expect(join.body.data.user_id).toBeNull();
      expect(join.body.data.user).toMatchObject({ user_id: second, email: 'second@example.com' });
      const userDelete = r.received.find((w) => w.body.event === 'delete')!;
      expect(userDelete.body.context_id).toBe(firstUser);

      const log = (await t.get('/api/v3/webhook_log?limit=50&where=status:EQUALS:delivered').expect(200)).body
        .response as Record<string, unknown>[];
      expect(log.length).toBeGreaterThanOrEqual(9);
      expect(log[0]).toMatchObject({
        status: 'delivered',
        attempts: 1,
        last_response_code: 200,
        next_attempt_datetime: null,
      });
    });

    it('sends only the events a hook asked for', async () => {
      const users = await receiver();
      const inserts = await receiver();
      await hook(users.url, 'user.*');
      await hook(inserts.url, 'customer.insert');
      const id = await newCustomer();
      await t.put(`/api/v3/customer/${id}`, { company: 'Other' }).expect(202);
      await t.drainJobs();
      expect(users.received.map((w) => `${w.body.context_str}.${w.body.event}`)).toEqual(['user.insert']);
      expect(inserts.received.map((w) => `${w.body.context_str}.${w.body.event}`)).toEqual(['customer.insert']);
    });

    it('sends nothing for a request with _flag_webhooks=0', async () => {
      const r = await receiver();
      await hook(r.url, '*');
      const before = await t.dataSource.getRepository(WebhookDelivery).count();
      await newCustomer('?_flag_webhooks=0');
      await sweep();
      expect(r.received).toHaveLength(0);
      expect(await t.dataSource.getRepository(WebhookDelivery).count()).toBe(before);
      await newCustomer();
      expect(r.received.length).toBeGreaterThan(0);
    });

    it('retries a failing receiver on schedule: the 4th attempt delivers, the log keeps 3 failed bodies', async () => {
      const t0 = new Date('2026-05-01T10:00:00Z');
      t.clock.set(t0);
      const r = await receiver();
      r.answer = (n) => (n <= 3 ? { status: 500, body: `down #${n}` } : { status: 200 });
      const { id: hookId, secret } = await hook(r.url, 'customer.insert');
      await newCustomer();
      expect(r.received).toHaveLength(1);

      const steps = [RETRY_DELAYS_MS[0], RETRY_DELAYS_MS[1], RETRY_DELAYS_MS[2]];
      for (const delay of steps) {
        const count = r.received.length;
        t.clock.advance(delay - 1000);
        expect(await sweep()).toBe(0);
        expect(r.received).toHaveLength(count);
        t.clock.advance(1000);
        expect(await sweep()).toBe(1);
        expect(r.received).toHaveLength(count + 1);
      }
      const seconds = r.received.map((w) => Number(w.headers['webhook-timestamp']) - t0.getTime() / 1000);
      expect(seconds).toEqual([0, 5, 5 + 300, 5 + 300 + 1800]);
      expect(new Set(r.received.map((w) => w.headers['webhook-id'])).size).toBe(1);
      expect(new Set(r.received.map((w) => w.raw)).size).toBe(1);
      for (const w of r.received) expect(verifyStandardWebhook(secret, w)).toBe(true);

      const [entry] = (await t.get(`/api/v3/_resthook/${hookId}/_log`).expect(200)).body.response as Record<
        string,
        unknown
      >[];
      expect(entry).toMatchObject({
        resthook_id: hookId,
        webhook_message_id: r.received[0].headers['webhook-id'],
        context_str: 'customer',
        event: 'insert',
        status: 'delivered',
        attempts: 4,
        last_response_code: 200,
        next_attempt_datetime: null,
      });
      const attempts = entry.attempt_log as Record<string, unknown>[];
      expect(attempts.map((a) => [a.attempt, a.response_code, a.response_body])).toEqual([
        [1, 500, 'down #1'],
        [2, 500, 'down #2'],
        [3, 500, 'down #3'],
        [4, 200, null],
      ]);
      expect(attempts.map((a) => a.attempt_datetime)).toEqual([
        '2026-05-01T05:00:00-05:00',
        '2026-05-01T05:00:05-05:00',
        '2026-05-01T05:05:05-05:00',
        '2026-05-01T05:35:05-05:00',
      ]);
    });

    it('gives up after the last attempt, keeps the delivery, and retries it on request', async () => {
      t.clock.set(new Date('2026-06-01T00:00:00Z'));
      const r = await receiver();
      r.answer = () => ({ status: 503, body: 'x'.repeat(10_000) });
      await hook(r.url, 'customer.insert');
      await newCustomer();
      const [pending] = (await t.get('/api/v3/webhook_log?limit=1').expect(200)).body.response as Record<
        string,
        unknown
      >[];
      expect(pending).toMatchObject({ status: 'failed', attempts: 1, last_response_code: 503 });
      expect(pending.next_attempt_datetime).toBe('2026-05-31T19:00:05-05:00');
      expect((pending.last_response_body as string).length).toBe(4096);

      for (const delay of RETRY_DELAYS_MS) {
        t.clock.advance(delay);
        expect(await sweep()).toBe(1);
      }
      expect(r.received).toHaveLength(10);
      t.clock.advance(7 * 24 * 3600 * 1000);
      expect(await sweep()).toBe(0);
      expect(r.received).toHaveLength(10);

      const logId = pending.webhook_log_id as number;
      const given = (await t.get(`/api/v3/webhook_log/${logId}`).expect(200)).body.response;
      expect(given).toMatchObject({ status: 'given_up', attempts: 10, next_attempt_datetime: null });
      expect(given.attempt_log).toHaveLength(10);
      const listed = (await t.get('/api/v3/webhook_log?where=status:EQUALS:given_up').expect(200)).body.response as {
        webhook_log_id: number;
      }[];
      expect(listed.map((e) => e.webhook_log_id)).toContain(logId);
      expect((await t.get('/api/v3/webhook_log/_count?where=status:EQUALS:given_up').expect(200)).body.response).toBe(
        listed.length,
      );

      r.answer = () => ({ status: 200 });
      expect((await t.post(`/api/v3/webhook_log/${logId}?action=retry`).expect(200)).body.response).toBe(true);
      await t.drainJobs();
      expect(r.received).toHaveLength(11);
      expect(r.received[10].headers['webhook-id']).toBe(r.received[0].headers['webhook-id']);
      const delivered = (await t.get(`/api/v3/webhook_log/${logId}`).expect(200)).body.response;
      expect(delivered).toMatchObject({ status: 'delivered', attempts: 11, last_response_code: 200 });

      const again = await t.post(`/api/v3/webhook_log/${logId}/_action/retry`).expect(400);
      expect(again.body.message).toContain('is delivered');
      expect((await t.post(`/api/v3/webhook_log/${logId}?action=resend`).expect(400)).body.message).toContain(
        'Unknown action "resend"',
      );
      await t.post('/api/v3/webhook_log/999999?action=retry').expect(404);
      expect((await t.get('/api/v3/webhook_log/999999').expect(404)).body.message).toBe(
        'This webhook_log does not exist.',
      );
    });

    it('sends an attempt once however many workers race for it (lease claim)', async () => {
      const r = await receiver();
      await hook(r.url, 'customer.insert');
      const enqueue = jest.spyOn(t.app.get(JobQueue), 'enqueue').mockResolvedValue(undefined);
      await newCustomer();
      enqueue.mockRestore();
      const delivery = await t.dataSource
        .getRepository(WebhookDelivery)
        .findOneOrFail({ where: { status: 'pending' }, order: { webhook_delivery_id: 'DESC' } });
      const deliverer = t.app.get(WebhookDeliverer);
      await Promise.all([1, 2, 3, 4].map(() => deliverer.attempt(delivery.webhook_delivery_id)));
      expect(r.received).toHaveLength(1);
      const after = (await t.get(`/api/v3/webhook_log/${delivery.webhook_delivery_id}`).expect(200)).body.response;
      expect(after).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(after.attempt_log).toHaveLength(1);
    });

    it('treats a redirect as a failure and never follows it', async () => {
      const inside = await receiver();
      const r = await receiver();
      r.answer = () => ({ status: 307, headers: { Location: inside.url }, body: 'moved' });
      const { id } = await hook(r.url, 'customer.insert');
      await newCustomer();
      expect(r.received).toHaveLength(1);
      expect(inside.received).toHaveLength(0);
      const [entry] = (await t.get(`/api/v3/_resthook/${id}/_log`).expect(200)).body.response;
      expect(entry).toMatchObject({ status: 'failed', last_response_code: 307, last_response_body: 'moved' });
    });

    it('gives up the open deliveries of a deleted hook and keeps them in the log', async () => {
      t.clock.set(new Date('2026-07-01T00:00:00Z'));
      const r = await receiver();
      r.answer = () => ({ status: 500 });
      const { id } = await hook(r.url, 'customer.insert');
      await newCustomer();
      await t.del(`/api/v3/_resthook/${id}`).expect(200);
      t.clock.advance(RETRY_DELAYS_MS[0]);
      expect(await sweep()).toBe(0);
      expect(r.received).toHaveLength(1);
      const entries = (await t.get('/api/v3/webhook_log?where=resthook_id:EQUALS:' + id).expect(200)).body.response;
      expect(entries).toEqual([expect.objectContaining({ status: 'given_up', attempts: 1 })]);
      await t.get(`/api/v3/_resthook/${id}/_log`).expect(404);
    });

    it('pages the log with the list machinery', async () => {
      const r = await receiver();
      await hook(r.url, 'customer.insert');
      for (let i = 0; i < 3; i++) await newCustomer();
      const page = (await t.get('/api/v3/webhook_log?limit=2&offset=1&order=webhook_log_id:ASC').expect(200)).body
        .response as { webhook_log_id: number }[];
      expect(page).toHaveLength(2);
      expect(page[0].webhook_log_id).toBeLessThan(page[1].webhook_log_id);
      const bad = await t.get('/api/v3/webhook_log?where=secret:EQUALS:x').expect(400);
      expect(bad.body.message).toContain('secret');
      await t.get('/api/v3/webhook_log?limit=501').expect(400);
    });
  });
});

function customerIdOf(w: ReceivedWebhook): unknown {
  return (w.body.data.customer as { customer_id: number }).customer_id;
}

function userIdOf(w: ReceivedWebhook): unknown {
  return (w.body.data.user as { user_id: number }).user_id;
}
