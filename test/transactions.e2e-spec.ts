import { AchSettlementJob } from 'src/transactions/ach-settlement.job';
import { captureOutput, dumpAllTables } from './support/secret-scan';
import * as make from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

/** Every full card number and CVV this file sends: none may be stored or logged. */
const CARD_NUMBERS = [
  '4242424242424242',
  '4000000000000002',
  '4116196783374209',
  '4000000000009995',
  '4000000000000069',
  '4000000000000119',
  '5555555555554444',
];
const CVV = '731';
const CVV_KEY = /\\?"cvv\\?"\s*:/i;

describe('transactions', () => {
  let t: TestApp;
  let output: { stop: () => string };

  beforeAll(async () => {
    output = captureOutput();
    t = await createTestApp();
    // A Thursday: 3 business days later is the next Tuesday.
    t.clock.set(new Date('2026-11-19T15:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
  });

  const newCustomer = (extra: Record<string, unknown> = {}) => make.newCustomer(t, extra);
  const card = (number = '4242424242424242', extra: Record<string, unknown> = {}) =>
    make.newCard({ number, cvv: CVV, ...extra });
  const read = async (id: number) => (await t.get(`/api/v3/transaction/${id}`).expect(200)).body.response;
  const customer = async (id: number) => (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response;
  const count = async () => (await t.get('/api/v3/transaction/_count').expect(200)).body.response as number;

  describe('credit memos and offline payments', () => {
    it('records a credit memo in the recorded shape', async () => {
      const customerId = await newCustomer();
      const res = await t
        .post('/api/v3/transaction', {
          customer_id: customerId,
          transaction_type: 'cre',
          gateway_method: 'credit',
          amount: '42.50',
          gateway_status: 1,
          gateway_transid: 'API Credit',
          transaction_detail: 'Credit for unused Image Relay Small',
        })
        .expect(201);
      const id = res.body.response.id as number;
      expect(res.headers.location).toBe(`https://billing.example.test/api/v3/transaction/${id}`);
      expect(await read(id)).toMatchObject({
        transaction_id: id,
        currency_id: 1,
        token: expect.stringMatching(/^[a-z0-9]{12}$/),
        transaction_date: '2026-11-19',
        gateway_status: 1,
        gateway_transid: 'API Credit',
        gateway_msg: '',
        amount: 42.5,
        fee: 0,
        transaction_type: 'cre',
        transaction_method: 'Credits',
        transaction_detail: 'Credit for unused Image Relay Small',
        void_datetime: null,
        transaction_type_name: 'Credit',
        currency_symbol: '$',
        currency_iso4217: 'USD',
        customer_id: customerId,
        applied: 0,
        unapplied: 42.5,
        transaction_status_str: 'ok-successful',
        transaction_status_state: 'o',
        transaction_status_name: 'Success',
        applied_to: [],
        refunds: [],
      });
      // A credit is not a payment: `paid` stays 0.
      expect((await customer(customerId)).paid).toBe(0);
    });

    it('records an offline check payment and a failed one', async () => {
      const customerId = await newCustomer();
      const ok = (
        await t
          .post('/api/v3/transaction', {
            customer_id: customerId,
            transaction_type: 'pay',
            gateway_method: 'check',
            amount: '4500.00',
            gateway_status: 1,
            gateway_transid: 'Manual Entry',
            transaction_date: '2026-11-02',
            custom_1: 'c1',
          })
          .expect(201)
      ).body.response.id;
      expect(await read(ok)).toMatchObject({
        amount: 4500,
        transaction_method: 'Paid by Check',
        transaction_type_name: 'Payment',
        transaction_date: '2026-11-02',
        custom_1: 'c1',
        unapplied: 4500,
      });
      const failed = (
        await t
          .post('/api/v3/transaction', {
            customer_id: customerId,
            transaction_type: 'pay',
            gateway_method: 'visa',
            amount: 10,
            gateway_status: 0,
            gateway_msg: 'Card declined at the terminal',
          })
          .expect(201)
      ).body.response.id;
      expect(await read(failed)).toMatchObject({
        gateway_status: 0,
        transaction_status_str: 'fail-declined',
        transaction_status_state: 'f',
        applied: 0,
        unapplied: 0,
      });
      expect((await customer(customerId)).paid).toBe(4500);
    });

    it.each([
      [{ amount: 0 }, 'Field "amount" must be more than 0.'],
      [{ amount: '-5.00' }, 'Field "amount" must be more than 0.'],
      [{ amount: 'ten' }, 'Invalid field "amount": must be a number.'],
      [{ amount: undefined }, 'A required parameter was missing: "amount".'],
      [{ gateway_method: 'bitcoin' }, 'Field "gateway_method" must be one of visa, mastercard'],
      [{ transaction_type: 'cre' }, 'Field "gateway_method" must be "credit" for a credit memo.'],
      [{ transaction_type: 'ref' }, 'Field "transaction_type" must be "pay" (offline payment) or "cre" (credit memo).'],
      [{ applied_to: [{ invoice_id: 123456 }] }, 'Field "applied_to[0].invoice_id": no invoice with id 123456 exists.'],
      [
        { applied_to: [{ invoice_id: 1 }], auto_apply: 'oldest_first' },
        'Send only one of "applied_to" and "auto_apply"',
      ],
      [{ auto_apply: 'random' }, 'auto_apply must be one of: oldest_first, newest_first, best_fit'],
      [{ applied_to: 'x' }, 'Field "applied_to" must be an array of invoices.'],
      [{ customer_id: 999999 }, 'Field "customer_id": no customer with id 999999 exists.'],
      [{ applied: 3 }, '"applied" is read-only'],
    ])('refuses %p with a 400 naming the problem, writing nothing', async (change, message) => {
      const customerId = await newCustomer();
      const before = await count();
      const body = {
        customer_id: customerId,
        transaction_type: 'pay',
        gateway_method: 'check',
        amount: '10.00',
        ...change,
      };
      const res = await t.post('/api/v3/transaction', body).expect(400);
      expect(res.body).toMatchObject({ code: 400, status: 'Error', response: false });
      expect(res.body.message).toContain(message);
      expect(await count()).toBe(before);
    });
  });

  describe('card payments through the test gateway', () => {
    it('charges a new card: 200 with details, the card is stored, paid goes up', async () => {
      const customerId = await newCustomer();
      const res = await t
        .post('/api/v3/transaction?action=pay', { customer_id: customerId, amount: 99.99, paymethods: [card()] })
        .expect(200);
      const id = res.body.response.id as number;
      const cards = (await t.get(`/api/v3/creditcard?where=customer_id:EQUALS:${customerId}`)).body.response;
      expect(cards).toHaveLength(1);
      expect(res.body.details).toEqual({
        transaction_id: id,
        gateway_status: 1,
        gateway_err_code: 0,
        gateway_err_detail: '',
        gateway_msg: '',
        creditcard_id: cards[0].creditcard_id,
      });
      expect(await read(id)).toMatchObject({
        amount: 99.99,
        gateway_id: 1,
        gateway_type: 'test',
        transaction_type: 'pay',
        transaction_method: 'Visa',
        transaction_detail: 'x4242',
        creditcard_id: cards[0].creditcard_id,
        transaction_status_str: 'ok-successful',
        unapplied: 99.99,
      });
      expect((await customer(customerId)).paid).toBe(99.99);
    });

    it.each([
      ['4000000000000002', 'Your card was declined.', 'fail-declined', 2],
      ['4116196783374209', 'Your card was declined.', 'fail-declined', 2],
      ['4000000000009995', 'Your card has insufficient funds.', 'fail-declined', 3],
      ['4000000000000069', 'Your card has expired.', 'fail-declined', 4],
      [
        '4000000000000119',
        'An error occurred while processing your card. Try again in a little bit.',
        'fail-error',
        500,
      ],
    ])('card %s fails: 400 "%s", the attempt is recorded', async (number, message, status, errCode) => {
      const customerId = await newCustomer();
      const res = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: customerId,
          amount: '20.00',
          paymethods: [card(number)],
        })
        .expect(400);
      expect(res.body.message).toBe(`This transaction could not be processed: ${message}`);
      expect(res.body.response).toBe(false);
      expect(res.body.details).toMatchObject({ gateway_status: 0, gateway_msg: message, gateway_err_code: errCode });
      const failed = await read(res.body.details.transaction_id);
      expect(failed).toMatchObject({
        gateway_status: 0,
        gateway_msg: message,
        gateway_err_code: errCode,
        transaction_status_str: status,
        applied: 0,
        unapplied: 0,
      });
      expect((await customer(customerId)).paid).toBe(0);
    });

    it('declines a card whose expiry has passed, and does not keep it', async () => {
      const customerId = await newCustomer();
      const res = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: customerId,
          amount: 5,
          paymethods: [card('4242424242424242', { expdate_year: 2026, expdate_month: 10 })],
        })
        .expect(400);
      expect(res.body.message).toBe('This transaction could not be processed: Your card has expired.');
      expect((await t.get(`/api/v3/creditcard/_count?where=customer_id:EQUALS:${customerId}`)).body.response).toBe(0);
    });

    it('declines a stored card once the Clock passes its expiry', async () => {
      const customerId = await newCustomer();
      const cardId = (
        await t
          .post('/api/v3/creditcard', {
            customer_id: customerId,
            ...card('5555555555554444', { expdate_year: 2026, expdate_month: 11 }),
          })
          .expect(201)
      ).body.response.id;
      await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: customerId,
          amount: 5,
          paymethods: [{ creditcard_id: cardId }],
        })
        .expect(200);
      const later = new TestClockStep(t, new Date('2026-12-01T15:00:00Z'));
      try {
        const res = await t
          .post('/api/v3/transaction?action=pay', {
            customer_id: customerId,
            amount: 5,
            paymethods: [{ creditcard_id: cardId }],
          })
          .expect(400);
        expect(res.body.message).toBe('This transaction could not be processed: Your card has expired.');
        expect(res.body.details.creditcard_id).toBe(cardId);
      } finally {
        later.restore();
      }
    });

    it.each([
      [{ amount: 0 }, 'Field "amount" must be more than 0.'],
      [{ amount: -1 }, 'Field "amount" must be more than 0.'],
      [{ amount: undefined }, 'A required parameter was missing: "amount" (or at least one invoice in "applied_to").'],
      [{ applied_to: [777777] }, 'Field "applied_to[0].invoice_id": no invoice with id 777777 exists.'],
      [{ paymethods: [card('4242424242424241')] }, 'Field "paymethods[0].number" is not a valid card number.'],
      [{ paymethods: [{ creditcard_id: 999999 }] }, 'has no credit card with id 999999'],
      [{ paymethods: [] }, 'Field "paymethods" must be a non-empty array'],
      [
        { paymethods: [{ type: 'chec', number: '000123456789', routing: '123456789', name: 'X' }] },
        'Field "paymethods[0].routing" is not a valid ABA routing number.',
      ],
      [{ customer_id: undefined }, 'A required parameter was missing: "customer_id"'],
    ])('refuses payment %p with a 400, charging and writing nothing', async (change, message) => {
      const customerId = await newCustomer();
      const before = await count();
      const res = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: customerId,
          amount: 10,
          paymethods: [card()],
          ...change,
        })
        .expect(400);
      expect(res.body.message).toContain(message);
      expect(res.body.message).not.toMatch(/\d{12,}/);
      expect(await count()).toBe(before);
    });
  });

  describe('payment-method selection without paymethods', () => {
    it('refuses when the customer has no method', async () => {
      const customerId = await newCustomer();
      const res = await t.post('/api/v3/transaction?action=pay', { customer_id: customerId, amount: 10 }).expect(400);
      expect(res.body.message).toBe(
        `No payment method to charge: send "paymethods" or store a card or bank account for customer ${customerId}.`,
      );
    });

    it('step 2: the customer default is charged, not the older cards', async () => {
      const customerId = await newCustomer();
      const first = (
        await t.post('/api/v3/creditcard', { customer_id: customerId, ...card('4242424242424242') }).expect(201)
      ).body.response.id;
      const second = (
        await t.post('/api/v3/creditcard', { customer_id: customerId, ...card('5555555555554444') }).expect(201)
      ).body.response.id;
      await t
        .post(`/api/v3/customer/${customerId}?action=setPayMethod`, { paymethod: 'crd', creditcard_id: second })
        .expect(200);
      const res = await t.post('/api/v3/transaction?action=pay', { customer_id: customerId, amount: 10 }).expect(200);
      expect(res.body.details.creditcard_id).toBe(second);
      expect(first).not.toBe(second);
    });

    it('step 2 with a declining default: only the default is tried', async () => {
      const customerId = await newCustomer();
      await t.post('/api/v3/creditcard', { customer_id: customerId, ...card('4242424242424242') }).expect(201);
      const bad = (
        await t.post('/api/v3/creditcard', { customer_id: customerId, ...card('4000000000000002') }).expect(201)
      ).body.response.id;
      await t.post(`/api/v3/customer/${customerId}?action=setPayMethod`, { creditcard_id: bad }).expect(200);
      const before = await count();
      const res = await t.post('/api/v3/transaction?action=pay', { customer_id: customerId, amount: 10 }).expect(400);
      expect(res.body.details.creditcard_id).toBe(bad);
      expect(await count()).toBe(before + 1);
    });

    it('step 3: without a default, every method is tried in turn until one goes through', async () => {
      const customerId = await newCustomer({ external_key: 'step3' });
      const bad = (
        await t.post('/api/v3/creditcard', { customer_id: customerId, ...card('4000000000009995') }).expect(201)
      ).body.response.id;
      const good = (
        await t.post('/api/v3/creditcard', { customer_id: customerId, ...card('4242424242424242') }).expect(201)
      ).body.response.id;
      const before = await count();
      const res = await t
        .post('/api/v3/transaction?action=pay', { customer_external_key: 'step3', amount: 10 })
        .expect(200);
      expect(res.body.details.creditcard_id).toBe(good);
      expect(await count()).toBe(before + 2);
      const attempts = (
        await t.get(`/api/v3/transaction?where=customer_id:EQUALS:${customerId}&order=transaction_id:ASC`)
      ).body.response;
      expect(
        attempts.map((a: { creditcard_id: number; transaction_status_str: string }) => [
          a.creditcard_id,
          a.transaction_status_str,
        ]),
      ).toEqual([
        [bad, 'fail-declined'],
        [good, 'ok-successful'],
      ]);
    });

    it('step 3 includes tokenized methods', async () => {
      const customerId = await newCustomer();
      const tok = (
        await t
          .post('/api/v3/tokenized', { customer_id: customerId, type: 'customer', token: 'cus_1CoGUjtUMyLIDR' })
          .expect(201)
      ).body.response.id;
      const res = await t.post('/api/v3/transaction?action=pay', { customer_id: customerId, amount: 100 }).expect(200);
      expect(res.body.details.tokenized_id).toBe(tok);
      expect(await read(res.body.response.id)).toMatchObject({
        transaction_method: 'Tokenized',
        transaction_detail: 'cus_1CoGUjtUMyLIDR',
      });
    });
  });

  describe('bank payments', () => {
    const bank = (number: string) => ({ type: 'chec', number, routing: '110000000', name: 'Checking' });

    async function payByBank(customerId: number, number: string): Promise<number> {
      const res = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: customerId,
          amount: '250.00',
          paymethods: [bank(number)],
        })
        .expect(200);
      expect(res.body.details).toMatchObject({ gateway_status: 1, ach_id: expect.any(Number) });
      return res.body.response.id as number;
    }

    it('is pending, then settles after ACH_SETTLEMENT_DAYS business days by the Clock', async () => {
      const customerId = await newCustomer();
      const ok = await payByBank(customerId, '000123456789');
      const returned = await payByBank(customerId, '000111111116');
      const nsf = await payByBank(customerId, '000222222227');
      for (const id of [ok, returned, nsf]) {
        expect(await read(id)).toMatchObject({
          transaction_status_str: 'ok-pending',
          transaction_status_name: 'Pending',
          transaction_method: 'ACH',
        });
      }
      expect((await customer(customerId)).paid).toBe(0);

      const job = t.app.get(AchSettlementJob);
      const step = new TestClockStep(t, new Date('2026-11-24T14:59:00Z'));
      try {
        // Monday: not yet 3 business days.
        expect(await job.run()).toBe(0);
        t.clock.set(new Date('2026-11-24T15:00:00Z'));
        expect(await job.run()).toBe(3);
        expect(await read(ok)).toMatchObject({ transaction_status_str: 'ok-successful', gateway_status: 1 });
        expect(await read(returned)).toMatchObject({
          transaction_status_str: 'fail-declined',
          gateway_status: 0,
          gateway_msg: 'The bank returned the payment.',
        });
        expect(await read(nsf)).toMatchObject({
          transaction_status_str: 'fail-declined',
          gateway_msg: 'The bank account has insufficient funds.',
        });
        expect((await customer(customerId)).paid).toBe(250);
        expect(await job.run()).toBe(0);
      } finally {
        step.restore();
      }
    });
  });

  describe('actions', () => {
    async function paid(customerId: number, amount: string): Promise<number> {
      return (
        await t
          .post('/api/v3/transaction?action=pay', { customer_id: customerId, amount, paymethods: [card()] })
          .expect(200)
      ).body.response.id;
    }

    it('refunds a payment in full and in part, never more than was paid', async () => {
      const customerId = await newCustomer();
      const payment = await paid(customerId, '99.00');
      const partial = await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: 10.0 }).expect(200);
      // A number, as every other create answers (the recorded traffic has a string here).
      expect(partial.body.response).toEqual({ id: expect.any(Number) });
      const refundId = partial.body.response.id;
      expect(await read(refundId)).toMatchObject({
        amount: -10,
        transaction_type: 'ref',
        transaction_type_name: 'Refund',
        transaction_method: 'Visa',
        transaction_detail: 'x4242',
        parent_transaction_id: payment,
        payments: [payment],
      });
      const tooMuch = await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: 89.01 }).expect(400);
      expect(tooMuch.body.message).toBe('Field "amount": 89.01 is more than the 89.00 left to refund.');
      const rest = await t.post(`/api/v3/transaction/${payment}/_action/refund`).expect(200);
      expect(await read(Number(rest.body.response.id))).toMatchObject({ amount: -89 });
      expect(await read(payment)).toMatchObject({ refunds: [refundId, Number(rest.body.response.id)], unapplied: 0 });
      await t.post(`/api/v3/transaction/${payment}?action=refund`).expect(400);
      expect((await customer(customerId)).paid).toBe(0);
    });

    it('refuses to refund a credit memo, a failed payment, or with amount 0', async () => {
      const customerId = await newCustomer();
      const credit = (
        await t
          .post('/api/v3/transaction', {
            customer_id: customerId,
            transaction_type: 'cre',
            gateway_method: 'credit',
            amount: 5,
          })
          .expect(201)
      ).body.response.id;
      const before = await count();
      expect((await t.post(`/api/v3/transaction/${credit}?action=refund`).expect(400)).body.message).toBe(
        'A credit memo cannot be refunded.',
      );
      const failed = (
        await t
          .post('/api/v3/transaction?action=pay', {
            customer_id: customerId,
            amount: 5,
            paymethods: [card('4000000000000002')],
          })
          .expect(400)
      ).body.details.transaction_id;
      expect((await t.post(`/api/v3/transaction/${failed}?action=refund`).expect(400)).body.message).toContain(
        'Only a successful payment',
      );
      const payment = await paid(customerId, '5.00');
      await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: 0 }).expect(400);
      expect(await count()).toBe(before + 2);
      await t.post('/api/v3/transaction/999999?action=refund').expect(404);
    });

    it('voids without the gateway, and paid drops', async () => {
      const customerId = await newCustomer();
      const payment = await paid(customerId, '30.00');
      expect((await t.post(`/api/v3/transaction/${payment}?action=void`).expect(200)).body.response).toBe(true);
      expect(await read(payment)).toMatchObject({
        transaction_status_str: 'void-voided',
        transaction_status_state: 'v',
        void_datetime: expect.any(String),
        unapplied: 0,
      });
      expect((await customer(customerId)).paid).toBe(0);
      await t.post(`/api/v3/transaction/${payment}?action=void`).expect(400);
    });

    it('declines with the given messages', async () => {
      const customerId = await newCustomer();
      const payment = await paid(customerId, '12.00');
      await t
        .post(`/api/v3/transaction/${payment}?action=decline`, {
          gateway_msg: 'Chargeback',
          gateway_err_code: 77,
          gateway_err_detail: 'cb',
        })
        .expect(200);
      expect(await read(payment)).toMatchObject({
        transaction_status_str: 'fail-declined',
        gateway_status: 0,
        gateway_msg: 'Chargeback',
        gateway_err_code: 77,
        gateway_err_detail: 'cb',
      });
      expect((await customer(customerId)).paid).toBe(0);
    });

    it('e-mails a receipt, with overrides, and honours _flag_emails=0', async () => {
      const customerId = await newCustomer();
      const payment = await paid(customerId, '12.00');
      await t.post(`/api/v3/transaction/${payment}?action=email`).expect(200);
      await t
        .post(`/api/v3/transaction/${payment}?action=email`, { email: 'a@example.com', subject: 'Thanks' })
        .expect(200);
      await t.post(`/api/v3/transaction/${payment}?action=email&_flag_emails=0`).expect(200);
      const mails = await t.dataSource.query<Array<{ to_addr: string; subject: string }>>(
        `SELECT to_addr, subject FROM mail_message WHERE context_str = 'transaction' AND context_id = ${payment} ORDER BY mail_message_id`,
      );
      expect(mails).toEqual([
        { to_addr: 'payer@example.com', subject: 'Payment receipt' },
        { to_addr: 'a@example.com', subject: 'Thanks' },
      ]);
    });

    it('changeAppliedAmounts refuses refunds and unknown invoices; [] unapplies', async () => {
      const customerId = await newCustomer();
      const payment = await paid(customerId, '20.00');
      const refund = Number(
        (await t.post(`/api/v3/transaction/${payment}?action=refund`, { amount: 1 }).expect(200)).body.response.id,
      );
      expect(
        (await t.post(`/api/v3/transaction/${refund}?action=changeAppliedAmounts`, { applied_to: [] }).expect(400)).body
          .message,
      ).toBe('Applied amounts can be changed only on payments and credits.');
      expect(
        (
          await t
            .post(`/api/v3/transaction/${payment}?action=changeAppliedAmounts`, {
              applied_to: [{ invoice_id: 424242, applied: 1 }],
            })
            .expect(400)
        ).body.message,
      ).toBe('Field "applied_to[0].invoice_id": no invoice with id 424242 exists.');
      await t.post(`/api/v3/transaction/${payment}?action=changeAppliedAmounts`, { applied_to: [] }).expect(200);
      await t.post(`/api/v3/transaction/${payment}?action=changeAppliedAmounts`, {}).expect(400);
      await t.post(`/api/v3/transaction/${payment}?action=nope`).expect(400);
    });
  });

  describe('lists', () => {
    it('filters by every kind of query field and counts', async () => {
      const customerId = await newCustomer();
      const ok = (
        await t
          .post('/api/v3/transaction?action=pay', { customer_id: customerId, amount: 7, paymethods: [card()] })
          .expect(200)
      ).body.response.id;
      const bad = (
        await t
          .post('/api/v3/transaction?action=pay', {
            customer_id: customerId,
            amount: 8,
            paymethods: [card('4000000000000002')],
          })
          .expect(400)
      ).body.details.transaction_id;
      const ids = async (where: string) =>
        (
          (await t.get(`/api/v3/transaction?where=customer_id:EQUALS:${customerId},${where}`).expect(200)).body
            .response as Array<{ transaction_id: number }>
        ).map((r) => r.transaction_id);
      expect(await ids('transaction_status.str:EQUALS:ok-successful')).toEqual([ok]);
      expect(await ids('transaction_status.state:EQUALS:f')).toEqual([bad]);
      expect(await ids('amount:GT:7.5')).toEqual([bad]);
      expect(await ids('gateway_status:EQUALS:1')).toEqual([ok]);
      expect(await ids('transaction_type:EQUALS:pay')).toEqual([ok, bad]);
      expect(await ids('transaction_method:EQUALS:Visa')).toEqual([ok, bad]);
      expect(await ids('applied_to.invoice_id:EQUALS:1')).toEqual([]);
      const list = (await t.get(`/api/v3/transaction?where=customer_id:EQUALS:${customerId}`)).body.response;
      expect(list[0]).not.toHaveProperty('applied_to');
      expect(
        (
          await t
            .get(`/api/v3/transaction/_count?where=customer_id:EQUALS:${customerId},transaction_status.state:EQUALS:o`)
            .expect(200)
        ).body.response,
      ).toBe(1);
      expect((await t.get('/api/v3/transaction?where=nope:EQUALS:1').expect(400)).body.message).toContain('nope');
      await t.get('/api/v3/transaction/999999').expect(404);
      expect((await t.get(`/api/v3/transaction/${ok}/_revision`).expect(200)).body.response.length).toBe(1);
    });
  });

  describe('every plain query field', () => {
    let row: Record<string, unknown>;

    beforeAll(async () => {
      const customerId = await newCustomer();
      const res = await t
        .post('/api/v3/transaction?action=pay', {
          customer_id: customerId,
          amount: '17.25',
          external_key: 'pay-ext-1',
          paymethods: [card()],
        })
        .expect(200);
      row = (await t.get(`/api/v3/transaction/${res.body.response.id}`).expect(200)).body.response;
    });

    it.each([
      'transaction_id',
      'customer_id',
      'gateway_id',
      'currency_id',
      'creditcard_id',
      'token',
      'external_key',
      'gateway_transid',
      'amount',
      'transaction_detail',
    ])('%s', async (field) => {
      const value = encodeURIComponent(String(row[field]));
      const found = (await t.get(`/api/v3/transaction?where=${field}:EQUALS:${value}&limit=500`).expect(200)).body
        .response;
      expect(found.map((r: { transaction_id: number }) => r.transaction_id)).toContain(row.transaction_id);
      expect(found.every((r: Record<string, unknown>) => String(r[field]) === String(row[field]))).toBe(true);
    });

    it('ach_id, tokenized_id and fee, transaction_datetime ranges', async () => {
      const rows = (
        await t
          .get(
            `/api/v3/transaction?where=transaction_id:EQUALS:${String(row.transaction_id)},ach_id:IS:NULL,tokenized_id:IS:NULL,fee:EQUALS:0,transaction_datetime:GTE:2026-11-19`,
          )
          .expect(200)
      ).body.response;
      expect(rows).toHaveLength(1);
    });
  });

  it('stores and logs no full card number and no CVV (scan of every table and of the output)', async () => {
    const dump = await dumpAllTables(t.dataSource);
    // The scan sees the stored payment data (masked), so a full number would be found.
    expect(dump.creditcard).toContain('"last4":"4242"');
    expect(dump.payment_transaction).toContain('x4242');
    for (const [table, rows] of Object.entries(dump)) {
      for (const number of CARD_NUMBERS)
        expect({ table, found: rows.includes(number) }).toEqual({ table, found: false });
      // A CVV value, a `cvv` column or a `cvv` key in stored JSON (random tokens may contain the letters).
      expect({ table, found: rows.includes(`"${CVV}"`) || CVV_KEY.test(rows) }).toEqual({ table, found: false });
    }
    const logs = output.stop();
    for (const number of CARD_NUMBERS) expect(logs.includes(number)).toBe(false);
    expect(CVV_KEY.test(logs) || logs.includes(`"${CVV}"`)).toBe(false);
  });
});

/** Moves the Clock for one test and puts it back after. */
class TestClockStep {
  private readonly before: Date;

  constructor(
    private readonly t: TestApp,
    to: Date,
  ) {
    this.before = t.clock.now();
    t.clock.set(to);
  }

  restore(): void {
    this.t.clock.set(this.before);
  }
}
