import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobQueue } from 'src/core/jobs/job-queue';
import { JobProbe, JobProbeModule, PROBE_JOB } from './support/job-probe';
import { accountDate } from 'src/core/time/account-date';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { startReceiver, WebhookReceiver } from './support/webhook-receiver';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the test clock (TEST_CLOCK=true)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let item: number;

  const received = (event: string, contextId: number) =>
    receiver.received.filter(
      (r) => `${r.body.context_str}.${r.body.event}` === event && Number(r.body.context_id) === contextId,
    );
  /** The account date a delivery was sent on (its signed timestamp, by the server's clock). */
  const sentOn = (r: WebhookReceiver['received'][number]) =>
    accountDate(new Date(Number(r.headers['webhook-timestamp']) * 1000), 'America/Chicago');

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    receiver = await startReceiver();
    t.clock.set(new Date('2026-04-01T15:00:00Z'));
    await t.post('/api/v3/_resthook', { target_url: receiver.url, event: '*' }).expect(201);
    item = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 25 } });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('reads the server time, frozen until moved', async () => {
    const first = await t.get('/api/v3/_clock').expect(200);
    expect(first.body).toEqual({
      code: 200,
      status: 'OK',
      message: '',
      details: {},
      response: { datetime: '2026-04-01T10:00:00-05:00', date: '2026-04-01', timezone: 'America/Chicago' },
    });
    expect((await t.get('/api/v3/_clock').expect(200)).body.response).toEqual(first.body.response);
  });

  it('31 days on, an invoice due in 30 reads open-overdue and its customer active-overdue, each webhook once', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Late', superuser_email: 'ap@late.test' });
    // Net 30 (the default terms): due 2026-05-01.
    const invoice = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: item }] });
    expect((await t.get(`/api/v3/invoice/${invoice}`).expect(200)).body.response).toMatchObject({
      due_date: '2026-05-01',
      invoice_status_str: 'open-unpaid',
    });

    const moved = await moveClock(t, new Date(t.clock.now().getTime() + 31 * DAY_MS));
    expect(moved).toEqual({ datetime: '2026-05-02T10:00:00-05:00', date: '2026-05-02', timezone: 'America/Chicago' });

    expect((await t.get(`/api/v3/invoice/${invoice}`).expect(200)).body.response).toMatchObject({
      invoice_status_str: 'open-overdue',
    });
    expect((await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response).toMatchObject({
      customer_status_str: 'active-overdue',
    });
    // Every delivery was made before the move answered: no waiting here.
    const status = received('invoice.status', invoice);
    expect(status).toHaveLength(1);
    expect(status[0].body.data).toMatchObject({ invoice: { invoice_id: invoice, invoice_status_str: 'open-overdue' } });
    expect(sentOn(status[0])).toBe('2026-05-02');
    expect(received('customer.status', customer)).toHaveLength(1);
    // The nightly job ran as of each account date on the way, once per date.
    const nights = Array.from({ length: 31 }, (_, i) => accountDate(new Date(Date.UTC(2026, 3, 2 + i, 12)), 'UTC'));
    expect(received('invoice.nightly', invoice).map(sentOn)).toEqual(nights);
    expect(received('customer.nightly', customer).map(sentOn)).toEqual(nights);
  });

  it('settles a pending bank payment when the clock passes its settlement day', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Bank payer' });
    const res = await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: customer,
        amount: '40.00',
        paymethods: [{ type: 'chec', number: '000123456789', routing: '110000000', name: 'Checking' }],
      })
      .expect(200);
    const id = res.body.response.id as number;
    const read = async () => (await t.get(`/api/v3/transaction/${id}`).expect(200)).body.response;
    expect(await read()).toMatchObject({ transaction_status_str: 'ok-pending' });
    // Saturday 2026-05-02: three business days on is Wednesday; Monday is not enough.
    await moveClock(t, '2026-05-04 12:00:00');
    expect(await read()).toMatchObject({ transaction_status_str: 'ok-pending' });
    await moveClock(t, '2026-05-08 12:00:00');
    expect(await read()).toMatchObject({ transaction_status_str: 'ok-successful' });
  });

  it('retries a failed webhook when the clock passes its retry moment', async () => {
    const before = receiver.received.length;
    // The first attempt of the next delivery fails; the retry (5 s later) succeeds.
    receiver.answer = (n) => ({ status: n === before + 1 ? 500 : 200 });
    const customer = await createId(t, '/api/v3/customer', { company: 'Retried' });
    await t.drainJobs();
    expect(received('customer.insert', customer)).toHaveLength(1);

    await moveClock(t, new Date(t.clock.now().getTime() + 60_000));
    const attempts = received('customer.insert', customer);
    expect(attempts).toHaveLength(2);
    expect(attempts[1].headers['webhook-id']).toBe(attempts[0].headers['webhook-id']);
    expect(Number(attempts[1].headers['webhook-timestamp']) - Number(attempts[0].headers['webhook-timestamp'])).toBe(5);
  });

  it('never moves back, and names the field of a bad datetime', async () => {
    const now = (await t.get('/api/v3/_clock').expect(200)).body.response.datetime as string;
    const back = await t.post('/api/v3/_clock', { datetime: '2026-04-01' }).expect(400);
    expect(back.body).toMatchObject({ code: 400, response: false });
    expect(back.body.message).toContain('"datetime"');
    expect(back.body.message).toContain('never back');
    const bad = await t.post('/api/v3/_clock', { datetime: 'next tuesday' }).expect(400);
    expect(bad.body.message).toBe('Field "datetime" is not a valid datetime.');
    const missing = await t.post('/api/v3/_clock', { when: '2027-01-01' }).expect(400);
    expect(missing.body.message).toContain('when');
    expect((await t.get('/api/v3/_clock').expect(200)).body.response.datetime).toBe(now);
  });
});

describe('without TEST_CLOCK', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 on /_clock and keeps the real clock', async () => {
    const notFound = { code: 404, message: 'Invalid endpoint: no such resource or method.', response: null };
    expect((await t.get('/api/v3/_clock').expect(404)).body).toMatchObject(notFound);
    expect((await t.post('/api/v3/_clock', { datetime: '2030-01-01' }).expect(404)).body).toMatchObject(notFound);
    expect(Math.abs(t.clock.now().getTime() - Date.now())).toBeLessThan(2000);
  });
});

describe('a long move of the test clock', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The shortest deadline a request may have: the move below takes longer.
    t = await createTestApp({ TEST_CLOCK: 'true', REQUEST_TIMEOUT_MS: '1000' });
    t.clock.set(new Date('2026-01-05T15:00:00Z'));
  });
  afterAll(() => t.close());

  it("is not cut by the request's deadline: the due work it runs is not the request's own", async () => {
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const customer = await createId(t, '/api/v3/customer', { company: 'Long move' });
    await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    const started = Date.now();
    const moved = await moveClock(t, '2028-01-05T15:00:00Z');
    expect(moved.date).toBe('2028-01-05');
    // Two years of nights and monthly cycles took longer than the 1 s deadline.
    expect(Date.now() - started).toBeGreaterThan(1000);
    // Every cycle was billed: the first on creation (2026-01-05), then one a month to 2028-01-05.
    const invoices = await t.get(`/api/v3/invoice/_count?where=customer_id:EQUALS:${customer}`).expect(200);
    expect(invoices.body.response).toBe(25);
  }, 300_000);
});

describe('one test clock for every process of a deployment', () => {
  let dir: string;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shared-clock-'));
    const env = { TEST_CLOCK: 'true', DB_PATH: join(dir, 'billing.sqlite') };
    a = await createTestApp(env, { keepDatabase: true });
    a.clock.set(new Date('2026-02-01T15:00:00Z'));
    await a.drainJobs();
    // A second process of the same deployment (its own Clock), started after the first.
    b = await createTestApp({ ...env, DB_NAME: a.config.db.name }, { imports: [JobProbeModule] });
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts at the stored moment, and reads a move made elsewhere at its next request and its next job', async () => {
    expect(b.clock.now()).toEqual(new Date('2026-02-01T15:00:00Z'));
    await moveClock(a, '2026-03-15T15:00:00Z');
    // The stored moment is read at the start of each request ...
    expect((await b.get('/api/v3/_clock').expect(200)).body.response.date).toBe('2026-03-15');
    await moveClock(a, '2026-04-20T15:00:00Z');
    // ... and of each job.
    const jobs = b.app.get(JobQueue);
    await jobs.enqueue(PROBE_JOB, {});
    await jobs.drain();
    expect(b.app.get(JobProbe).seen.map((job) => job.at)).toEqual([new Date('2026-04-20T15:00:00Z')]);
  });
});
