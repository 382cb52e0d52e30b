import { HostResolver } from 'src/webhooks/delivery/target-url-guard';
import { WebhookDeliverer } from 'src/webhooks/delivery/webhook-deliverer';
import { createTestApp, TestApp } from './support/test-app';

/** DNS answers chosen by the test (no network): only hooks.example.com resolves. */
const resolver: HostResolver = (hostname) =>
  hostname === 'hooks.example.com'
    ? Promise.resolve([{ address: '93.184.216.34', family: 4 }])
    : Promise.reject(new Error('ENOTFOUND'));

describe('a webhook target whose name does not resolve yet', () => {
  describe('with WEBHOOK_ALLOW_PRIVATE_TARGETS=true', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
      t.app.get(WebhookDeliverer).resolver = resolver;
    });
    afterAll(async () => {
      await t.close();
    });

    it('is accepted at creation and checked again at the delivery', async () => {
      const url = 'http://receiver.not-up-yet.test:8080/in';
      const res = await t.post('/api/v3/_resthook', { target_url: url, event: 'customer.insert' }).expect(201);
      const id = res.body.response.id as number;
      expect((await t.get(`/api/v3/_resthook/${id}`).expect(200)).body.response.target_url).toBe(url);

      await t.post('/api/v3/customer', { company: 'Early' }).expect(201);
      await t.drainJobs();
      const [entry] = (await t.get(`/api/v3/_resthook/${id}/_log`).expect(200)).body.response;
      expect(entry).toMatchObject({ status: 'failed', attempts: 1, last_response_code: null });
      expect(entry.last_error).toBe('target refused: host "receiver.not-up-yet.test" does not resolve');
    });

    it('still refuses what is not an http(s) URL', async () => {
      const res = await t.post('/api/v3/_resthook', { target_url: 'ftp://files.example.com/in', event: '*' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid field "target_url": must use https.');
    });
  });

  describe('in the default mode', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
      t.app.get(WebhookDeliverer).resolver = resolver;
    });
    afterAll(async () => {
      await t.close();
    });

    it('is refused at creation, as SPEC says (a resolvable public domain name)', async () => {
      const res = await t
        .post('/api/v3/_resthook', { target_url: 'https://receiver.not-up-yet.test/in', event: '*' })
        .expect(400);
      expect(res.body.message).toBe('Invalid field "target_url": host "receiver.not-up-yet.test" does not resolve.');
      await t.post('/api/v3/_resthook', { target_url: 'https://hooks.example.com/in', event: '*' }).expect(201);
    });
  });
});
