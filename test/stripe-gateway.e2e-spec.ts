import { DomainEvent } from 'src/core/events/domain-event.entity';
import { Revision } from 'src/core/revisions/revision.entity';
import { CreditCard } from 'src/paymethods/entities/credit-card.entity';
import { StripeCustomer } from 'src/payments/stripe/stripe-customer.entity';
import { GatewayDispute } from 'src/transactions/entities/gateway-dispute.entity';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { ATTEMPT_GRACE_MS, PaymentAttemptSweeper } from 'src/transactions/payment-attempt-sweeper';
import { TransactionWriter } from 'src/transactions/transaction-writer';
import { createId } from './support/catalog-fixtures';
import { captureOutput, dumpAllTables } from './support/secret-scan';
import * as make from './support/factories';
import { FakeStripe, STRIPE_WEBHOOK_SECRET, stripeEnv } from './support/fake-stripe';
import { browserOf, csrfOf, pathOf } from './support/hosted-pages';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/**
 * The Stripe gateway (issue 38) against a local Stripe-compatible server that records
 * every request the official SDK sends: methods filed under one Stripe Customer, each
 * charge one PaymentIntent under the attempt's reference, declines with Stripe's codes,
 * refunds, 3-D Secure, the payment-safety rules and Stripe's signed webhooks.
 */
describe('Stripe gateway', () => {
  let t: TestApp;
  let fake: FakeStripe;
  let item: number;
  let output: { stop: () => string };

  beforeAll(async () => {
    output = captureOutput();
    fake = await FakeStripe.start();
    // Plain http: the hosted pages' cookies are not Secure, so the test browser keeps them.
    // Debug logs: the scan at the end reads everything the server would log.
    t = await createTestApp({ ...stripeEnv(fake), PUBLIC_URL: 'http://billing.example.test', LOG_LEVEL: 'debug' });
    t.clock.set(new Date('2026-11-19T15:00:00Z'));
    item = await make.newItem(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const newInvoice = (customerId: number, rate = '100.00') =>
    make.newInvoiceOf(t, customerId, [{ item_id: item, line_rate: rate, line_quantity: 1 }]);
  const invoice = async (id: number): Promise<Json> => (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response;
  const tokenized = (customer: number, token: string) =>
    createId(t, '/api/v3/tokenized', { customer_id: customer, token });
  const intentsSince = (mark: number) =>
    fake.requests.slice(mark).filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
  const transactionOf = (id: number) => t.dataSource.manager.findOneByOrFail(Transaction, { transaction_id: id });
  /** A payment of `amount` by a new customer, with a method made by "Stripe.js". */
  const paymentOf = async (amount: number, token: string): Promise<Transaction> => {
    const customer = await make.newCustomer(t);
    const method = await tokenized(customer, token);
    const paid = await t
      .post('/api/v3/transaction?action=pay', { customer_id: customer, amount, paymethods: [{ tokenized_id: method }] })
      .expect(200);
    return transactionOf(paid.body.response.id as number);
  };
  const webhook = (body: string, signature?: string) => {
    const req = t.http.post('/gateway/stripe/webhook').set('Content-Type', 'application/json');
    return (signature === undefined ? req : req.set('Stripe-Signature', signature)).send(body);
  };

  describe('payment methods', () => {
    it('attaches a pm_ id from Stripe.js to the customer’s one Stripe Customer and keeps brand, last 4 and expiry', async () => {
      const customer = await make.newCustomer(t);
      const mark = fake.requests.length;
      const first = await tokenized(customer, fake.clientMethod('4242424242424242', 2031, 4));
      const second = await tokenized(customer, fake.clientMethod('5555555555554444', 2030, 11));

      const created = fake.sent('POST', '/v1/customers').filter((r) => fake.requests.indexOf(r) >= mark);
      expect(created).toHaveLength(1); // the Customer is reused for the second method
      expect(created[0].contentType).toMatch(/^application\/x-www-form-urlencoded/);
      expect(created[0].form['metadata[customer_id]']).toBe(String(customer));
      expect(created[0].idempotencyKey).toBe(`customer-billing.example.test-${customer}`);
      expect(created[0].authorization).toBe('Bearer sk_test_billing_0123456789');
      const stored = await t.dataSource.manager.findOneByOrFail(StripeCustomer, { customer_id: customer });
      const attaches = fake
        .sent('POST', /^\/v1\/payment_methods\/pm_\w+\/attach$/)
        .filter((r) => fake.requests.indexOf(r) >= mark);
      expect(attaches.map((r) => r.form)).toEqual([
        { customer: stored.stripe_customer_id },
        { customer: stored.stripe_customer_id },
      ]);

      const one = (await t.get(`/api/v3/tokenized/${first}`).expect(200)).body.response;
      expect(one).toMatchObject({
        type: 'visa',
        paymethod_hint: 'crd',
        expdate: '2031-04',
        mask_number: 'xxxx-xxxx-xxxx-4242',
      });
      const two = (await t.get(`/api/v3/tokenized/${second}`).expect(200)).body.response;
      expect(two).toMatchObject({ type: 'mast', expdate: '2030-11', mask_number: 'xxxx-xxxx-xxxx-4444' });
    });

    it('refuses a token that is not a Stripe PaymentMethod id, before calling Stripe', async () => {
      const customer = await make.newCustomer(t);
      const mark = fake.requests.length;
      const res = await t.post('/api/v3/tokenized', { customer_id: customer, token: 'tok_visa' }).expect(400);
      expect(res.body.message).toContain('Field "token" must be a Stripe PaymentMethod id (pm_…)');
      expect(fake.requests.length).toBe(mark);
    });

    it('creates the PaymentMethod server-side for POST /creditcard, and keeps neither the number nor the CVV', async () => {
      const customer = await make.newCustomer(t);
      const mark = fake.requests.length;
      const id = await createId(t, '/api/v3/creditcard', { customer_id: customer, ...make.newCard({ cvv: '987' }) });
      const [create] = fake.sent('POST', '/v1/payment_methods').filter((r) => fake.requests.indexOf(r) >= mark);
      expect(create.form).toMatchObject({
        type: 'card',
        'card[number]': '4242424242424242',
        'card[exp_month]': '1',
        'card[exp_year]': '2030',
        'card[cvc]': '987',
      });
      const row = await t.dataSource.manager.findOneByOrFail(CreditCard, { creditcard_id: id });
      expect(row.gateway_token).toMatch(/^pm_/);
      expect(fake.methods.get(row.gateway_token)?.customer).toMatch(/^cus_/);
      const kept = JSON.stringify(row);
      expect(kept).not.toContain('4242424242424242');
      expect(kept).not.toContain('987');
    });

    it('answers 400 pointing to Stripe.js and /tokenized when Stripe refuses raw card numbers', async () => {
      const customer = await make.newCustomer(t);
      fake.refuseRawCards = true;
      try {
        const res = await t.post('/api/v3/creditcard', { customer_id: customer, ...make.newCard() }).expect(400);
        expect(res.body.message).toContain('Collect the card with Stripe.js');
        expect(res.body.message).toContain('POST /tokenized');
      } finally {
        fake.refuseRawCards = false;
      }
      expect(await t.dataSource.manager.countBy(CreditCard, { customer_id: customer })).toBe(0);
    });
  });

  describe('charges', () => {
    it('pays an invoice with one PaymentIntent: cents, the Customer, confirm, off_session, the reference as key and metadata', async () => {
      const customer = await make.newCustomer(t);
      const method = await tokenized(customer, fake.clientMethod());
      const inv = await newInvoice(customer, '123.45');
      const mark = fake.requests.length;
      const res = await t
        .post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [{ tokenized_id: method }] })
        .expect(200);

      const [sent] = intentsSince(mark);
      const stored = await t.dataSource.manager.findOneByOrFail(StripeCustomer, { customer_id: customer });
      expect(sent.form).toMatchObject({
        amount: '12345', // 123.45 × 100 cents
        currency: 'usd',
        customer: stored.stripe_customer_id,
        payment_method: fake
          .sent('POST', /attach$/)
          .at(-1)!
          .path.split('/')[3],
        confirm: 'true',
        off_session: 'true',
      });
      expect(sent.idempotencyKey).toMatch(/^[A-Za-z0-9]+-0$/);
      expect(sent.form['metadata[reference]']).toBe(sent.idempotencyKey);
      const paid = await transactionOf(res.body.response.id as number);
      expect(paid).toMatchObject({ status_str: 'ok-successful', gateway_type: 'stripe', gateway_status: 1 });
      expect(paid.gateway_transid).toMatch(/^pi_/);
      expect(fake.intents.get(paid.gateway_transid!)?.amount).toBe(12345);
      expect((await invoice(inv)).balance).toBe(0);
    });

    it('records a decline with Stripe’s customer message and its decline code', async () => {
      const customer = await make.newCustomer(t);
      const method = await tokenized(customer, fake.clientMethod('4000000000009995'));
      const inv = await newInvoice(customer, '20.00');
      const res = await t
        .post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [{ tokenized_id: method }] })
        .expect(400);
      expect(res.body.message).toBe('This transaction could not be processed: Your card has insufficient funds.');
      expect(res.body.details).toMatchObject({
        gateway_status: 0,
        gateway_msg: 'Your card has insufficient funds.',
        gateway_err_code: 3,
        gateway_err_detail: 'insufficient_funds',
      });
      const failed = await transactionOf(res.body.details.transaction_id as number);
      expect(failed).toMatchObject({ status_str: 'fail-declined', gateway_status: 0 });
      expect(failed.gateway_transid).toMatch(/^pi_/);
      expect((await invoice(inv)).balance).toBe(20);
    });

    it('refunds through a Stripe Refund on the PaymentIntent, under the refund attempt’s reference', async () => {
      const payment = await paymentOf(100, fake.clientMethod());
      const mark = fake.requests.length;
      const refunded = await t
        .post(`/api/v3/transaction/${payment.transaction_id}?action=refund`, { amount: 40 })
        .expect(200);

      const [sent] = fake.sent('POST', '/v1/refunds').filter((r) => fake.requests.indexOf(r) >= mark);
      expect(sent.form).toMatchObject({ payment_intent: payment.gateway_transid, amount: '4000' }); // 40.00 × 100
      expect(sent.form['metadata[reference]']).toBe(sent.idempotencyKey);
      const attempt = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, { reference: sent.idempotencyKey! });
      expect(attempt).toMatchObject({ kind: 'refund', status: 'completed' });
      const refund = await transactionOf(Number(refunded.body.response.id));
      expect(refund.amount.toFixed(2)).toBe('-40.00');
    });
  });

  describe('payment safety', () => {
    it('makes one PaymentIntent when eight pays of one invoice race', async () => {
      const customer = await make.newCustomer(t);
      const method = await tokenized(customer, fake.clientMethod());
      const inv = await newInvoice(customer);
      const mark = fake.requests.length;
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0
            ? t.post('/api/v3/transaction?action=pay', {
                customer_id: customer,
                applied_to: [{ invoice_id: inv }],
                paymethods: [{ tokenized_id: method }],
              })
            : t.post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [{ tokenized_id: method }] }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
      expect(intentsSince(mark)).toHaveLength(1);
      expect(intentsSince(mark)[0].form.amount).toBe('10000');
      expect((await invoice(inv)).balance).toBe(0);
    });

    it('settles an attempt left pending after Stripe answered from lookup, without a second PaymentIntent', async () => {
      const customer = await make.newCustomer(t);
      const method = await tokenized(customer, fake.clientMethod());
      const inv = await newInvoice(customer, '42.00');
      const mark = fake.requests.length;
      const writer = t.app.get(TransactionWriter);
      const failing = jest.spyOn(writer, 'insert').mockRejectedValueOnce(new Error('injected crash after the charge'));
      try {
        await t.post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [{ tokenized_id: method }] }).expect(500);
      } finally {
        failing.mockRestore();
      }
      const [charged] = intentsSince(mark);
      const pending = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, {
        reference: charged.idempotencyKey!,
      });
      expect(pending.status).toBe('pending');

      const sweeper = t.app.get(PaymentAttemptSweeper);
      await sweeper.sweep(new Date(t.clock.now().getTime() + ATTEMPT_GRACE_MS + 1000));
      const [search] = fake.sent('GET', '/v1/payment_intents/search').filter((r) => fake.requests.indexOf(r) >= mark);
      expect(search.form.query).toBe(`metadata['reference']:'${charged.idempotencyKey}'`);
      expect(intentsSince(mark)).toHaveLength(1);
      const resolved = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, {
        reference: charged.idempotencyKey!,
      });
      expect(resolved.status).toBe('completed');
      const recorded = await transactionOf(resolved.transaction_id!);
      expect([recorded.status_str, recorded.amount.toFixed(2)]).toEqual(['ok-successful', '42.00']);
      expect((await invoice(inv)).balance).toBe(0);
    });
  });

  it('finds the PaymentIntent among the recent ones where the server has no search', async () => {
    const customer = await make.newCustomer(t);
    const method = await tokenized(customer, fake.clientMethod());
    const inv = await newInvoice(customer, '17.50');
    const mark = fake.requests.length;
    const writer = t.app.get(TransactionWriter);
    const failing = jest.spyOn(writer, 'insert').mockRejectedValueOnce(new Error('injected crash after the charge'));
    fake.withoutSearch = true;
    try {
      await t.post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [{ tokenized_id: method }] }).expect(500);
      await t.app.get(PaymentAttemptSweeper).sweep(new Date(t.clock.now().getTime() + ATTEMPT_GRACE_MS + 1000));
    } finally {
      failing.mockRestore();
      fake.withoutSearch = false;
    }
    expect(fake.sent('GET', '/v1/payment_intents').filter((r) => fake.requests.indexOf(r) >= mark)).toHaveLength(1);
    expect(intentsSince(mark)).toHaveLength(1);
    const [charged] = intentsSince(mark);
    const resolved = await t.dataSource.manager.findOneByOrFail(PaymentAttempt, { reference: charged.idempotencyKey! });
    expect(resolved.status).toBe('completed');
    expect((await invoice(inv)).balance).toBe(0);
  });

  describe('webhooks', () => {
    const bankPayment = (amount: number) => paymentOf(amount, fake.clientBankAccount());

    it('settles a pending bank payment once when a signed payment_intent.succeeded arrives twice', async () => {
      const payment = await bankPayment(75);
      expect(payment.status_str).toBe('ok-pending');
      const intent = fake.setIntentStatus(payment.gateway_transid!, 'succeeded');
      const event = fake.event('payment_intent.succeeded', intent, STRIPE_WEBHOOK_SECRET);

      const first = await webhook(event.body, event.signature).expect(200);
      expect(first.body.response).toEqual({ received: true, handled: true });
      const again = await webhook(event.body, event.signature).expect(200);
      expect(again.body.response).toEqual({ received: true, handled: false });
      expect((await transactionOf(payment.transaction_id)).status_str).toBe('ok-successful');
      const settled = await t.dataSource.manager.findBy(Revision, {
        context_str: 'transaction',
        context_id: payment.transaction_id,
        revision_note: 'Bank payment settled',
      });
      expect(settled).toHaveLength(1);
    });

    it('refuses an unsigned or wrongly signed event with 400 and changes nothing', async () => {
      const payment = await bankPayment(30);
      const intent = fake.setIntentStatus(payment.gateway_transid!, 'succeeded');
      const forged = fake.event('payment_intent.succeeded', intent, 'whsec_not_the_secret');
      const unsigned = await webhook(forged.body).expect(400);
      expect(unsigned.body.message).toContain('Stripe-Signature');
      await webhook(forged.body, forged.signature).expect(400);
      const good = fake.event('payment_intent.succeeded', intent, STRIPE_WEBHOOK_SECRET);
      await webhook(good.body.replace('"succeeded"', '"canceled"'), good.signature).expect(400); // altered body
      expect((await transactionOf(payment.transaction_id)).status_str).toBe('ok-pending');
    });

    it('fails a pending bank payment on payment_intent.payment_failed, reopening the invoice', async () => {
      const customer = await make.newCustomer(t);
      const method = await tokenized(customer, fake.clientBankAccount());
      const inv = await newInvoice(customer, '55.00');
      const paid = await t
        .post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [{ tokenized_id: method }] })
        .expect(200);
      const payment = await transactionOf(paid.body.response.id as number);
      const intent = fake.setIntentStatus(payment.gateway_transid!, 'requires_payment_method');
      intent.last_payment_error = {
        code: 'payment_method_provider_decline',
        decline_code: 'insufficient_funds',
        message: 'The bank account has insufficient funds.',
      };
      const event = fake.event('payment_intent.payment_failed', intent, STRIPE_WEBHOOK_SECRET);
      await webhook(event.body, event.signature).expect(200);
      expect(await transactionOf(payment.transaction_id)).toMatchObject({
        status_str: 'fail-declined',
        gateway_msg: 'The bank account has insufficient funds.',
        gateway_err_detail: 'insufficient_funds',
      });
      expect((await invoice(inv)).balance).toBe(55);
    });

    it('records a refund made in Stripe’s dashboard once, and none for a refund made here', async () => {
      const payment = await paymentOf(100, fake.clientMethod());
      const charge = {
        id: 'ch_dash',
        object: 'charge',
        payment_intent: payment.gateway_transid,
        amount: 10000,
        currency: 'usd',
      };
      const refunds = () => t.dataSource.manager.findBy(Transaction, { parent_transaction_id: payment.transaction_id });

      const dashboard = fake.event('charge.refunded', { ...charge, amount_refunded: 2500 }, STRIPE_WEBHOOK_SECRET);
      await webhook(dashboard.body, dashboard.signature).expect(200);
      await webhook(dashboard.body, dashboard.signature).expect(200); // the same event again
      expect((await refunds()).map((r) => r.amount.toFixed(2))).toEqual(['-25.00']); // 2500 cents

      // A refund made through the API: Stripe's event then tells a total this server has already.
      await t.post(`/api/v3/transaction/${payment.transaction_id}?action=refund`, { amount: 10 }).expect(200);
      const after = fake.event('charge.refunded', { ...charge, amount_refunded: 3500 }, STRIPE_WEBHOOK_SECRET);
      await webhook(after.body, after.signature).expect(200);
      expect((await refunds()).map((r) => r.amount.toFixed(2)).sort()).toEqual(['-10.00', '-25.00']); // 25 + 10 = 35.00
    });

    it('records a dispute on the payment and fires a dispute event', async () => {
      const payment = await paymentOf(60, fake.clientMethod());
      const dispute = {
        id: 'dp_test_1',
        object: 'dispute',
        amount: 6000,
        currency: 'usd',
        charge: 'ch_1',
        payment_intent: payment.gateway_transid,
        reason: 'fraudulent',
        status: 'needs_response',
      };
      const event = fake.event('charge.dispute.created', dispute, STRIPE_WEBHOOK_SECRET);
      await webhook(event.body, event.signature).expect(200);
      await webhook(event.body, event.signature).expect(200);
      const kept = await t.dataSource.manager.findBy(GatewayDispute, { transaction_id: payment.transaction_id });
      expect(kept.map((d) => [d.dispute_id, d.amount.toFixed(2), d.reason])).toEqual([
        ['dp_test_1', '60.00', 'fraudulent'],
      ]);
      const events = await t.dataSource.manager.findBy(DomainEvent, {
        context_str: 'transaction',
        context_id: String(payment.transaction_id),
        event: 'dispute',
      });
      expect(events.map((e) => e.data)).toEqual([
        { dispute_id: 'dp_test_1', amount: 60, reason: 'fraudulent', status: 'needs_response' },
      ]);
    });
  });

  describe('hosted payment-method page', () => {
    it('saves the pm_ id Stripe.js made as the card on file, and refuses a raw card form', async () => {
      const customer = await make.newCustomer(t);
      const link = (await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response.url_paymethodlink as string;
      const browser = browserOf(t);
      const page = await browser.get(pathOf(link)).expect(200);
      expect(page.text).toContain('<script src="https://js.stripe.com/v3/"></script>');
      expect(page.text).toContain('data-stripe-key="pk_test_billing_0123456789"');
      expect(page.text).not.toContain('name="number"');
      expect(page.text).toContain('go from your browser straight to Stripe');
      expect(page.headers['content-security-policy']).toContain("script-src 'self' https://js.stripe.com");

      const raw = await browser
        .post(pathOf(link))
        .type('form')
        .send({ _csrf: csrfOf(page.text), method: 'card', ...make.newCard() })
        .expect(400);
      expect(raw.text).toContain('Enter your card in the card field');
      const saved = await browser
        .post(pathOf(link))
        .type('form')
        .send({ _csrf: csrfOf(raw.text), method: 'stripe', payment_method: fake.clientMethod('4242424242424242') })
        .expect(200);
      expect(saved.text).toContain('Saved: xxxx-xxxx-xxxx-4242 is now your payment method on file.');
      expect(saved.text).toContain('On file: xxxx-xxxx-xxxx-4242.');
      expect((await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response.default_paymethod).toBe('tok');
      expect(await t.dataSource.manager.countBy(CreditCard, { customer_id: customer })).toBe(0);
    });
  });

  describe('3-D Secure', () => {
    it('fails an off-session charge that needs authentication; the pay link confirms it on the page', async () => {
      const customer = await make.newCustomer(t);
      const method = await tokenized(customer, fake.clientMethod('4000002760003184'));
      const inv = await newInvoice(customer, '80.00');
      const declined = await t
        .post(`/api/v3/invoice/${inv}?action=pay`, { paymethods: [{ tokenized_id: method }] })
        .expect(400);
      expect(declined.body.details).toMatchObject({ gateway_status: 0, gateway_err_detail: 'authentication_required' });

      const browser = browserOf(t);
      const path = pathOf((await invoice(inv)).url_paylink as string);
      const page = await browser.get(path).expect(200);
      expect(page.text).toContain('https://js.stripe.com/v3/');
      expect(page.text).not.toContain('name="number"');
      const mark = fake.requests.length;
      const confirm = await browser
        .post(path)
        .type('form')
        .send({ _csrf: csrfOf(page.text), method: 'stripe', payment_method: fake.clientMethod('4000002760003184') })
        .expect(200);
      const [sent] = intentsSince(mark);
      expect(sent.form.off_session).toBeUndefined(); // the payer is on the page
      const intentId = [...fake.intents.values()].find((i) => (i.metadata as Json).reference === sent.idempotencyKey)!
        .id as string;
      expect(confirm.text).toContain(`data-client-secret="${fake.intents.get(intentId)!.client_secret as string}"`);
      const pending = await t.dataSource.manager.findOneByOrFail(Transaction, { gateway_transid: intentId });
      expect(pending.status_str).toBe('ok-pending');

      // Stripe.js confirmed with the bank; Stripe says so.
      const event = fake.event(
        'payment_intent.succeeded',
        fake.setIntentStatus(intentId, 'succeeded'),
        STRIPE_WEBHOOK_SECRET,
      );
      await webhook(event.body, event.signature).expect(200);
      expect((await transactionOf(pending.transaction_id)).status_str).toBe('ok-successful');
      expect((await invoice(inv)).balance).toBe(0);
    });
  });
  it('answers /readyz without calling Stripe', async () => {
    const mark = fake.requests.length;
    await t.http.get('/readyz').expect(200);
    await t.http.get('/healthz').expect(200);
    expect(fake.requests.length).toBe(mark);
  });

  // Last: it scans what every test above stored and logged.
  it('stores and logs no full card number and no CVV sent to POST /creditcard', async () => {
    const dump = await dumpAllTables(t.dataSource);
    expect(dump.creditcard).toContain('"last4":"4242"'); // the scan sees the stored cards
    for (const [table, rows] of Object.entries(dump)) {
      expect({ table, found: rows.includes('4242424242424242') || rows.includes('"987"') }).toEqual({
        table,
        found: false,
      });
    }
    const logs = output.stop();
    expect(logs).toContain('/api/v3/creditcard'); // the requests were logged, their bodies not
    expect(logs.includes('4242424242424242')).toBe(false);
    expect(/\bcvv\b|\bcvc\b|"987"/i.test(logs)).toBe(false);
    // Only Stripe received the number and the CVV (as it must, to make the PaymentMethod).
    expect(fake.sent('POST', '/v1/payment_methods').some((r) => r.form['card[cvc]'] === '987')).toBe(true);
  });
});
