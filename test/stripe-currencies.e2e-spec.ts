import { Currency } from 'src/reference/entities/reference.entities';
import { ReferenceService } from 'src/reference/reference.service';
import { AchSettlementJob } from 'src/transactions/ach-settlement.job';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { ATTEMPT_GRACE_MS, PaymentAttemptSweeper } from 'src/transactions/payment-attempt-sweeper';
import { TransactionWriter } from 'src/transactions/transaction-writer';
import { createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { FakeStripe, stripeEnv } from './support/fake-stripe';
import { browserOf, csrfOf, pathOf } from './support/hosted-pages';
import { Json } from './support/json';
import { createTestApp, TestApp } from './support/test-app';

/** The seeded currencies (DESIGN §3 reference data): 1 USD, 2 EUR; JPY is added here as currency 6. */
const EUR = 2;
const JPY = 6;

/**
 * The Stripe gateway (issue 38), the invoice's own currency and every PaymentIntent
 * status: amounts go to Stripe in the currency's smallest unit (cents, or yen as they are),
 * a fraction of a yen is refused before anything is recorded or sent, and a PaymentIntent
 * that answers without moving money (stripe-mock's fixtures) is a decline, never a payment.
 */
describe('Stripe gateway: currencies and PaymentIntent answers', () => {
  let t: TestApp;
  let fake: FakeStripe;
  let item: number;

  beforeAll(async () => {
    fake = await FakeStripe.start();
    t = await createTestApp({ ...stripeEnv(fake), PUBLIC_URL: 'http://billing.example.test' });
    t.clock.set(new Date('2026-11-19T15:00:00Z'));
    // A zero-decimal currency: the currency table is reference data an operator extends.
    await t.dataSource.manager.insert(Currency, {
      currency_id: JPY,
      currency_iso4217: 'JPY',
      currency_symbol: '¥',
      currency_name: 'Japanese Yen',
    });
    await t.app.get(ReferenceService).onModuleInit();
    item = await make.newItem(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  afterEach(() => {
    fake.intentStatus = null;
  });

  const since = (mark: number, method: string, path: string | RegExp) =>
    fake.sent(method, path).filter((r) => fake.requests.indexOf(r) >= mark);
  const transactionOf = (id: number) => t.dataSource.manager.findOneByOrFail(Transaction, { transaction_id: id });
  const balanceOf = async (invoice: number): Promise<number> =>
    (await t.get(`/api/v3/invoice/${invoice}`).expect(200)).body.response.balance as number;
  /** A customer with a card made by "Stripe.js", and one invoice of `rate` in `currency`. */
  async function payerWithInvoice(rate: string, currency?: number, card = '4242424242424242') {
    const customer = await make.newCustomer(t, currency ? { currency_id: currency } : {});
    const method = await createId(t, '/api/v3/tokenized', { customer_id: customer, token: fake.clientMethod(card) });
    const invoice = await make.newInvoiceOf(
      t,
      customer,
      [{ item_id: item, line_rate: rate, line_quantity: 1 }],
      currency ? { currency_id: currency } : {},
    );
    const pay = () => t.post(`/api/v3/invoice/${invoice}?action=pay`, { paymethods: [{ tokenized_id: method }] });
    return { customer, method, invoice, pay };
  }

  describe("the invoice's own currency", () => {
    it('charges and refunds an EUR invoice of a US-dollar customer in euro cents', async () => {
      const { invoice, pay } = await payerWithInvoice('123.45', EUR);
      const mark = fake.requests.length;
      const paid = await pay().expect(200);
      const [intent] = since(mark, 'POST', '/v1/payment_intents');
      expect(intent.form).toMatchObject({ amount: '12345', currency: 'eur' }); // 123.45 EUR × 100
      const payment = await transactionOf(paid.body.response.id as number);
      expect(payment.currency_id).toBe(EUR); // recorded in the currency the money moved in
      const read = (await t.get(`/api/v3/transaction/${payment.transaction_id}`).expect(200)).body.response;
      expect(read.currency_iso4217).toBe('EUR');
      expect(await balanceOf(invoice)).toBe(0);

      await t.post(`/api/v3/transaction/${payment.transaction_id}?action=refund`, { amount: 40 }).expect(200);
      const [refund] = since(mark, 'POST', '/v1/refunds');
      expect(refund.form).toMatchObject({ payment_intent: payment.gateway_transid, amount: '4000' }); // 40.00 EUR × 100
      expect(await balanceOf(invoice)).toBe(40); // 123.45 − 123.45 + 40.00
    });

    it('charges and refunds a JPY invoice in yen as they are (a zero-decimal currency)', async () => {
      const { invoice, pay } = await payerWithInvoice('1234', JPY);
      const mark = fake.requests.length;
      const paid = await pay().expect(200);
      const [intent] = since(mark, 'POST', '/v1/payment_intents');
      expect(intent.form).toMatchObject({ amount: '1234', currency: 'jpy' }); // ¥1234 is 1234, not 123400
      const payment = await transactionOf(paid.body.response.id as number);
      expect(payment.currency_id).toBe(JPY);
      expect(fake.intents.get(payment.gateway_transid!)?.amount).toBe(1234);

      await t.post(`/api/v3/transaction/${payment.transaction_id}?action=refund`, { amount: 234 }).expect(200);
      const [refund] = since(mark, 'POST', '/v1/refunds');
      expect(refund.form.amount).toBe('234'); // ¥234
      // Whole refund of what is left: 1234 − 234 = ¥1000, within what Stripe holds unrefunded.
      await t.post(`/api/v3/transaction/${payment.transaction_id}?action=refund`, {}).expect(200);
      expect(since(mark, 'POST', '/v1/refunds').map((r) => r.form.amount)).toEqual(['234', '1000']);
      expect(await balanceOf(invoice)).toBe(1234);
    });

    it('refuses a fraction of a yen with a 400, before Stripe and before any record', async () => {
      const { customer, invoice, pay } = await payerWithInvoice('1234.50', JPY);
      const mark = fake.requests.length;
      const attempts = await t.dataSource.manager.count(PaymentAttempt);
      const refused = await pay().expect(400);
      expect(refused.body.message).toBe(
        'Field "amount": 1234.50 JPY is not a whole number of JPY\'s smallest unit (1); it is never rounded to fit.',
      );
      expect(since(mark, 'POST', '/v1/payment_intents')).toHaveLength(0);
      expect(await t.dataSource.manager.count(PaymentAttempt)).toBe(attempts);
      expect(await t.dataSource.manager.countBy(Transaction, { customer_id: customer })).toBe(0);
      expect(await balanceOf(invoice)).toBe(1234.5);
    });

    it('refuses a refund of a fraction of a yen, sending nothing to Stripe', async () => {
      const { pay } = await payerWithInvoice('500', JPY);
      const paid = await pay().expect(200);
      const mark = fake.requests.length;
      const refused = await t.post(`/api/v3/transaction/${paid.body.response.id}?action=refund`, { amount: 0.5 });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('Field "amount": 0.50 JPY is not a whole number');
      expect(since(mark, 'POST', '/v1/refunds')).toHaveLength(0);
      expect(
        await t.dataSource.manager.countBy(PaymentAttempt, {
          kind: 'refund',
          parent_transaction_id: paid.body.response.id,
        }),
      ).toBe(0);
    });

    it('refuses one payment for invoices in two currencies', async () => {
      const { customer, method, invoice } = await payerWithInvoice('10.00');
      const euros = await make.newInvoiceOf(t, customer, [{ item_id: item, line_rate: '20.00', line_quantity: 1 }], {
        currency_id: EUR,
      });
      const mark = fake.requests.length;
      const refused = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: customer,
          applied_to: [{ invoice_id: invoice }, { invoice_id: euros }],
          paymethods: [{ tokenized_id: method }],
        })
        .expect(400);
      expect(refused.body.message).toBe(
        'Field "applied_to": the invoices are in different currencies (USD, EUR); pay each currency with its own payment.',
      );
      expect(since(mark, 'POST', '/v1/payment_intents')).toHaveLength(0);
    });
  });

  describe('a confirmed PaymentIntent that moved no money', () => {
    it.each([
      ['requires_payment_method', 'The payment was not completed: the payment method was not accepted.'],
      ['requires_confirmation', 'The payment was not completed: it was not confirmed.'],
    ])('answered %s without an error (stripe-mock): a decline saying so', async (status, message) => {
      const { invoice, pay } = await payerWithInvoice('25.00');
      fake.intentStatus = status;
      const declined = await pay().expect(400);
      expect(declined.body.message).toBe(`This transaction could not be processed: ${message}`);
      expect(declined.body.details).toMatchObject({
        gateway_status: 0,
        gateway_msg: message,
        gateway_err_code: 2,
        gateway_err_detail: status,
      });
      const failed = await transactionOf(declined.body.details.transaction_id as number);
      expect(failed).toMatchObject({ status_str: 'fail-declined', gateway_status: 0 });
      expect(failed.gateway_transid).toMatch(/^pi_/);
      expect(await balanceOf(invoice)).toBe(25);
    });

    it('answered requires_action off-session: fails as authentication required, for the pay link', async () => {
      const { invoice, pay } = await payerWithInvoice('30.00');
      fake.intentStatus = 'requires_action';
      const declined = await pay().expect(400);
      expect(declined.body.details).toMatchObject({
        gateway_status: 0,
        gateway_err_code: 8,
        gateway_err_detail: 'authentication_required',
        gateway_msg: 'Your bank asks you to confirm this payment (3-D Secure): pay it from the payment link.',
      });
      expect(declined.body.details.gateway_client_secret).toBeUndefined(); // nobody is there to use it
      expect(await balanceOf(invoice)).toBe(30);
    });

    it('answered processing: a pending payment that holds the invoice', async () => {
      const { invoice, pay } = await payerWithInvoice('45.00');
      fake.intentStatus = 'processing';
      const pending = await pay().expect(200);
      expect((await transactionOf(pending.body.response.id as number)).status_str).toBe('ok-pending');
      expect(await balanceOf(invoice)).toBe(0);
    });
  });

  it('cancels in Stripe a 3-D Secure payment nobody confirmed by its settlement day; the invoice is owed again', async () => {
    const { invoice } = await payerWithInvoice('80.00');
    const link = (await t.get(`/api/v3/invoice/${invoice}`).expect(200)).body.response.url_paylink as string;
    const browser = browserOf(t);
    const page = await browser.get(pathOf(link)).expect(200);
    await browser
      .post(pathOf(link))
      .type('form')
      .send({ _csrf: csrfOf(page.text), method: 'stripe', payment_method: fake.clientMethod('4000002760003184') })
      .expect(200);
    const payment = await t.dataSource.manager.findOneOrFail(Transaction, {
      where: { transaction_type: 'pay', status_str: 'ok-pending' },
      order: { transaction_id: 'DESC' },
    });
    expect(fake.intents.get(payment.gateway_transid!)?.status).toBe('requires_action');
    expect(await balanceOf(invoice)).toBe(0);

    // ACH_SETTLEMENT_DAYS (3) business days later: Thursday 19 → Tuesday 24 November.
    const mark = fake.requests.length;
    t.clock.set(new Date('2026-11-25T15:00:00Z'));
    await t.app.get(AchSettlementJob).run();
    expect(since(mark, 'POST', `/v1/payment_intents/${payment.gateway_transid}/cancel`)).toHaveLength(1);
    expect(fake.intents.get(payment.gateway_transid!)?.status).toBe('canceled');
    expect(await transactionOf(payment.transaction_id)).toMatchObject({
      status_str: 'fail-declined',
      gateway_msg: 'Your bank asks you to confirm this payment (3-D Secure): pay it from the payment link.',
      gateway_err_detail: 'authentication_required',
    });
    expect(await balanceOf(invoice)).toBe(80);
  });

  describe('void', () => {
    it('cancels a pending PaymentIntent in Stripe before voiding the payment', async () => {
      const { invoice, pay } = await payerWithInvoice('35.00');
      fake.intentStatus = 'requires_capture'; // held, not collected: Stripe can still cancel it
      const paid = await pay().expect(200);
      const payment = await transactionOf(paid.body.response.id as number);
      expect(payment.status_str).toBe('ok-pending');
      const mark = fake.requests.length;
      await t.post(`/api/v3/transaction/${payment.transaction_id}?action=void`).expect(200);
      expect(since(mark, 'POST', `/v1/payment_intents/${payment.gateway_transid}/cancel`)).toHaveLength(1);
      expect(fake.intents.get(payment.gateway_transid!)?.status).toBe('canceled');
      expect((await transactionOf(payment.transaction_id)).status_str).toBe('void-voided');
      expect(await balanceOf(invoice)).toBe(35);
    });

    it('refuses to void a payment Stripe has collected, and changes nothing: it is refunded instead', async () => {
      const { invoice, pay } = await payerWithInvoice('36.00');
      const paid = await pay().expect(200);
      const refused = await t.post(`/api/v3/transaction/${paid.body.response.id}?action=void`).expect(400);
      expect(refused.body.message).toBe(
        'This payment could not be voided: Stripe cannot cancel it any more (it has succeeded or is being collected): refund it instead.',
      );
      expect((await transactionOf(paid.body.response.id as number)).status_str).toBe('ok-successful');
      expect(await balanceOf(invoice)).toBe(0);
    });
  });

  it('finds a refund Stripe made before a crash among its Refunds, and never refunds twice', async () => {
    const { pay } = await payerWithInvoice('90.00', EUR);
    const paid = await pay().expect(200);
    const mark = fake.requests.length;
    const failing = jest
      .spyOn(t.app.get(TransactionWriter), 'insert')
      .mockRejectedValueOnce(new Error('injected crash after the refund'));
    try {
      await t.post(`/api/v3/transaction/${paid.body.response.id}?action=refund`, { amount: 15 }).expect(500);
    } finally {
      failing.mockRestore();
    }
    const [made] = since(mark, 'POST', '/v1/refunds');
    expect(made.form.amount).toBe('1500'); // 15.00 EUR
    const attempt = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, { reference: made.idempotencyKey! });
    expect(attempt.status).toBe('pending');

    await t.app.get(PaymentAttemptSweeper).sweep(new Date(t.clock.now().getTime() + ATTEMPT_GRACE_MS + 1000));
    expect(since(mark, 'GET', '/v1/refunds')).toHaveLength(1);
    expect(since(mark, 'POST', '/v1/refunds')).toHaveLength(1);
    const resolved = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, { reference: made.idempotencyKey! });
    expect(resolved.status).toBe('completed');
    const refund = await transactionOf(resolved.transaction_id!);
    expect([refund.amount.toFixed(2), refund.currency_id]).toEqual(['-15.00', EUR]);
    const listed = (await t.get(`/api/v3/transaction/${paid.body.response.id}`).expect(200)).body.response as Json;
    expect(listed.refunds).toHaveLength(1);
  });
});
