import { WebhookDeliverer } from 'src/webhooks/delivery/webhook-deliverer';
import { createTestApp, TestApp } from './support/test-app';

/** The production rules (WEBHOOK_ALLOW_PRIVATE_TARGETS unset): what hook creation refuses. */
describe('webhook target rules', () => {
  let t: TestApp;
  let answers: Record<string, string[]>;

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
    // DNS answers chosen by the test (no network): names may point anywhere.
    t.app.get(WebhookDeliverer).resolver = (hostname) => {
      const found = answers[hostname] ?? [];
      return found.length
        ? Promise.resolve(found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })))
        : Promise.reject(new Error('ENOTFOUND'));
    };
  });
  beforeEach(() => {
    answers = { 'hooks.example.com': ['93.184.216.34'], 'sneaky.example.com': ['192.168.0.10'] };
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['http://hooks.example.com/in', 'must use https'],
    ['https://hooks.example.com:8080/in', 'must use port 80 or 443'],
    ['https://hooks.example.com:22/in', 'must use port 80 or 443'],
    ['https://127.0.0.1/in', 'must be a domain name, not an IP address'],
    ['https://2130706433/in', 'must be a domain name, not an IP address'],
    ['https://0x7f000001/in', 'must be a domain name, not an IP address'],
    ['https://[::1]/in', 'must be a domain name, not an IP address'],
    ['https://[::ffff:127.0.0.1]/in', 'must be a domain name, not an IP address'],
    ['https://169.254.169.254/latest', 'must be a domain name, not an IP address'],
    ['https://localhost/in', 'must not be localhost'],
    ['https://intranet/in', 'must be a fully qualified domain name'],
    ['https://sneaky.example.com/in', 'host "sneaky.example.com" resolves to a non-public address (192.168.0.10)'],
  ])('refuses %s', async (url, reason) => {
    const res = await t.post('/api/v3/_resthook', { target_url: url, event: '*' }).expect(400);
    expect(res.body.message).toBe(`Invalid field "target_url": ${reason}.`);
  });

  it('accepts a public https name, and re-checks it on every attempt (DNS rebinding)', async () => {
    const { id } = (
      await t
        .post('/api/v3/_resthook', { target_url: 'https://hooks.example.com/in', event: 'customer.insert' })
        .expect(201)
    ).body.response as { id: number };
    // The name now points inside: the attempt must not connect.
    answers['hooks.example.com'] = ['10.0.0.7'];
    await t.post('/api/v3/customer', { company: 'Rebound' }).expect(201);
    await t.drainJobs();
    const [entry] = (await t.get(`/api/v3/_resthook/${id}/_log`).expect(200)).body.response;
    expect(entry).toMatchObject({ status: 'failed', attempts: 1, last_response_code: null });
    expect(entry.last_error).toBe(
      'target refused: host "hooks.example.com" resolves to a non-public address (10.0.0.7)',
    );
  });
});
