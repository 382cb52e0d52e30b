import { IdempotencyKey } from 'src/core/idempotency/idempotency-key.entity';
import { IdempotencyStore } from 'src/core/idempotency/idempotency-store';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { TestGateway } from 'src/payments/test-gateway';
import { AUTH, createTestApp, TestApp } from './support/test-app';

/** `Idempotency-Key` on POST (Stripe's model), on every route, SQLite and MariaDB. */
describe('idempotency keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-19T15:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, key: string, body: unknown) =>
    t.http
      .post(path)
      .set('Authorization', AUTH)
      .set('Idempotency-Key', key)
      .send(body as object);
  const customers = async (company: string): Promise<number> =>
    (await t.get(`/api/v3/customer/_count?where=company:EQUALS:${company}`).expect(200)).body.response as number;

  it('answers a retry with the first answer, byte for byte, and creates one object', async () => {
    const body = { company: 'Idem Co', superuser_email: 'ap@idem.test' };
    const first = await post('/api/v3/customer', 'create-idem-co', body).expect(201);
    const again = await post('/api/v3/customer', 'create-idem-co', body).expect(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await customers('Idem Co')).toBe(1);
  });

  it('refuses the same key with a different body, and runs nothing', async () => {
    await post('/api/v3/customer', 'key-reused', { company: 'Reused A' }).expect(201);
    const res = await post('/api/v3/customer', 'key-reused', { company: 'Reused B' }).expect(400);
    expect(res.body.message).toBe(
      'Header "Idempotency-Key": this key was already used with a different request (method, path or body); send a new key for a new request.',
    );
    expect(await customers('Reused B')).toBe(0);
  });

  it('replays an error answer too, and a card pay is charged once', async () => {
    const gateway = t.app.get<PaymentGateway, TestGateway>(PaymentGateway);
    const c = (await t.post('/api/v3/customer', { company: 'Card payer' }).expect(201)).body.response.id;
    const pay = {
      customer_id: c,
      amount: 12,
      paymethods: [{ number: '4242424242424242', expdate_year: 2030, expdate_month: 1 }],
    };
    const mark = gateway.records().length;
    const first = await post('/api/v3/transaction?action=pay', 'pay-once', pay).expect(200);
    const again = await post('/api/v3/transaction?action=pay', 'pay-once', pay).expect(200);
    expect(again.body).toEqual(first.body);
    expect(
      gateway
        .records()
        .slice(mark)
        .filter((r) => r.kind === 'charge'),
    ).toHaveLength(1);

    const bad = { customer_id: c, amount: -1 };
    const refused = await post('/api/v3/transaction?action=pay', 'pay-bad', bad).expect(400);
    expect((await post('/api/v3/transaction?action=pay', 'pay-bad', bad).expect(400)).text).toBe(refused.text);
  });

  it('answers 409 while the first request with the key still runs, and one object is created', async () => {
    const body = { company: 'Racing key' };
    const answers = await Promise.all([1, 2, 3].map(() => post('/api/v3/customer', 'racing-key', body)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = new Set(answers.filter((a) => a.status === 201).map((a) => a.text));
    expect(created.size).toBe(1);
    expect(await customers('Racing key')).toBe(1);
  });

  it('tells keys apart by case: IDK-ABC is not idk-abc (keys are opaque, as in Stripe)', async () => {
    const c = (await t.post('/api/v3/customer', { company: 'Case payer' }).expect(201)).body.response.id;
    const pay = (amount: number) => ({
      customer_id: c,
      amount,
      paymethods: [{ number: '4242424242424242', expdate_year: 2030, expdate_month: 1 }],
    });
    const lower = await post('/api/v3/transaction?action=pay', 'idk-abc', pay(5)).expect(200);
    // Another body under the upper-case key: were the keys one, this would be a 400 (mismatch).
    const upper = await post('/api/v3/transaction?action=pay', 'IDK-ABC', pay(7)).expect(200);
    expect(upper.headers['idempotent-replayed']).toBeUndefined();
    expect(upper.body.response.id).not.toBe(lower.body.response.id);
    const same = await post('/api/v3/transaction?action=pay', 'IDK-ABC', pay(7)).expect(200);
    expect(same.headers['idempotent-replayed']).toBe('true');
    const rows = await t.dataSource.manager.findBy(IdempotencyKey, { idempotency_key: 'IDK-ABC' });
    expect(rows.map((row) => row.idempotency_key)).toEqual(['IDK-ABC']);
  });

  it('keeps a key for 24 hours', async () => {
    await post('/api/v3/customer', 'expiring', { company: 'Expiring' }).expect(201);
    const [row] = await t.dataSource.manager.findBy(IdempotencyKey, { idempotency_key: 'expiring' });
    expect(row.expires_datetime.getTime() - row.created_datetime.getTime()).toBe(24 * 3600_000);
    t.clock.set(new Date(row.expires_datetime.getTime() + 1000));
    await post('/api/v3/customer', 'expiring', { company: 'Expiring' }).expect(201);
    expect(await customers('Expiring')).toBe(2);
    expect(await t.app.get(IdempotencyStore).prune(new Date(t.clock.now().getTime() + 25 * 3600_000))).toBeGreaterThan(
      0,
    );
  });

  it('ignores the header on reads and refuses an empty key', async () => {
    await t.http.get('/api/v3/customer').set('Authorization', AUTH).set('Idempotency-Key', 'read').expect(200);
    const res = await post('/api/v3/customer', '', { company: 'No key' }).expect(400);
    expect(res.body.message).toBe('Header "Idempotency-Key" must be one value of 1 to 255 characters.');
  });
});
