import { PaymentGateway } from 'src/payments/payment-gateway';
import { TestGateway } from 'src/payments/test-gateway';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { ATTEMPT_GRACE_MS, PaymentAttemptSweeper } from 'src/transactions/payment-attempt-sweeper';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

/**
 * A gateway charge bound by the request's deadline (issue 43): a gateway that hangs never
 * holds a pay request past REQUEST_TIMEOUT_MS. The request answers 503 with
 * `details.outcome: "unknown"`; its attempt stays pending and is settled once, by the late
 * answer or by the sweeper, and the money moves once. A hang here lasts until the test ends
 * it, so an answer at all shows the bound.
 */
describe('a gateway that hangs past the request deadline', () => {
  let t: TestApp;
  let gateway: TestGateway;
  let item: number;

  beforeAll(async () => {
    t = await createTestApp({ REQUEST_TIMEOUT_MS: '1500' });
    t.clock.set(new Date('2026-11-19T15:00:00Z'));
    gateway = t.app.get<PaymentGateway, TestGateway>(PaymentGateway);
    item = await make.newItem(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const card = make.newCard();
  const newInvoice = async (): Promise<number> =>
    make.newInvoiceOf(t, await make.newCustomer(t), [{ item_id: item, line_rate: '15.00', line_quantity: 1 }]);
  const balance = async (id: number): Promise<unknown> =>
    (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response.balance;
  const successes = (mark: number) =>
    gateway
      .records()
      .slice(mark)
      .filter((r) => r.kind === 'charge' && r.result.outcome === 'success');
  /** The next charge waits until `release` is called, then reaches the gateway (or never does). */
  function hangNextCharge(): { release: () => void } {
    const original = gateway.charge.bind(gateway);
    let release = (): void => undefined;
    jest.spyOn(gateway, 'charge').mockImplementationOnce(
      (...args) =>
        new Promise((resolve, reject) => {
          release = () => void original(...args).then(resolve, reject);
        }),
    );
    return { release: () => release() };
  }

  afterEach(() => jest.restoreAllMocks());

  it('answers 503 outcome unknown, then records the late answer once; a keyed retry learns it was stored', async () => {
    const inv = await newInvoice();
    const mark = gateway.records().length;
    const hang = hangNextCharge();
    const pay = () =>
      t.post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [card] }).set('Idempotency-Key', `late-${inv}`);
    const first = await pay();
    expect([first.status, first.body.details]).toEqual([503, { outcome: 'unknown' }]);
    expect(await balance(inv)).toBe(15);

    hang.release();
    // The late answer is recorded outside the request: wait for its unit, not for time.
    await waitFor(async () => (await balance(inv)) === 0);
    expect(successes(mark)).toHaveLength(1);
    const attempt = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, { customer_id: await customerOf(inv) });
    expect(attempt.status).toBe('completed');

    // The open attempt was committed under the key: once the key is settled (in the
    // background, after the 503), a retry is told the write was stored, and runs nothing.
    let retry = await pay();
    await waitFor(async () => (retry = await pay()).body.details?.outcome === 'stored');
    expect([retry.status, retry.headers['idempotent-replayed']]).toEqual([409, 'true']);
    // The sweeper, later, finds nothing to settle: still one charge, 15.00 paid (15.00 - 15.00 = 0).
    await t.app.get(PaymentAttemptSweeper).sweep(new Date(t.clock.now().getTime() + ATTEMPT_GRACE_MS + 1000));
    expect(successes(mark)).toHaveLength(1);
    expect(await balance(inv)).toBe(0);
  });

  it('leaves an attempt the gateway never received to the sweeper, which frees its debt', async () => {
    const inv = await newInvoice();
    const mark = gateway.records().length;
    hangNextCharge(); // never released: the gateway never hears of it
    const first = await t.post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [card] });
    expect([first.status, first.body.details]).toEqual([503, { outcome: 'unknown' }]);
    // While the attempt is pending, its debt is reserved: a second pay is refused, nothing charged.
    await t.post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [card] }).expect(400);

    await t.app.get(PaymentAttemptSweeper).sweep(new Date(t.clock.now().getTime() + ATTEMPT_GRACE_MS + 1000));
    const attempt = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, { customer_id: await customerOf(inv) });
    expect([attempt.status, attempt.transaction_id]).toEqual(['failed', null]);
    expect(successes(mark)).toHaveLength(0);
    await t.post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [card] }).expect(200);
    expect(successes(mark)).toHaveLength(1);
    expect(await balance(inv)).toBe(0);
  });

  async function customerOf(inv: number): Promise<number> {
    return (await t.get(`/api/v3/invoice/${inv}`).expect(200)).body.response.customer_id as number;
  }
});

/** Polls `done` until it holds (bounded): for work that ends outside the request. */
async function waitFor(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('never happened');
}
