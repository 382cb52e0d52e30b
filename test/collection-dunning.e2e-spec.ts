import { DateTime } from 'luxon';
import { InvoiceCollection } from 'src/billing-runs/collection/invoice-collection.entity';
import { InvoiceCollector } from 'src/billing-runs/collection/invoice-collector';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { accountDate } from 'src/core/time/account-date';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { TestGateway } from 'src/payments/test-gateway';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { ATTEMPT_GRACE_MS } from 'src/transactions/payment-attempt-sweeper';
import { TransactionWriter } from 'src/transactions/transaction-writer';
import { createId } from './support/catalog-fixtures';
import { newCard, newCustomer as newAnyCustomer } from './support/factories';
import { SmtpInbox } from './support/smtp-inbox';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';
import { Json } from './support/json';

/**
 * A customer whose invoices are printed: the inbox here holds dunning mail only (an invoice a
 * subscription issues is mailed to an `email` customer when issued: invoice-mail-on-issue).
 */
const newCustomer: typeof newAnyCustomer = (t, fields = {}, query) =>
  newAnyCustomer(t, { invoice_delivery: 'print', ...fields }, query);

const ZONE = 'America/Chicago';
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const DECLINING = '4000000000000002';
/** "Due on Receipt": the invoice is overdue from the day after it is issued. */
const DUE_ON_RECEIPT = 1;

/** What a collection test needs: a subscription on a card, its invoices, the gateway's record. */
function collectionKit(get: () => TestApp) {
  const kit = {
    gateway: (): TestGateway => get().app.get<PaymentGateway, TestGateway>(PaymentGateway),
    /** Gateway charges (of any outcome) since `mark`. */
    chargesSince: (mark: number) =>
      kit
        .gateway()
        .records()
        .slice(mark)
        .filter((r) => r.kind === 'charge'),
    card: (customer: number, number = '4242424242424242') =>
      createId(get(), '/api/v3/creditcard', { customer_id: customer, ...newCard({ number }) }),
    subscription: async (customer: number, body: Json) => {
      const plan = await createId(get(), '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 49 } });
      return createId(get(), '/api/v3/package', {
        customer_id: customer,
        terms_id: DUE_ON_RECEIPT,
        line_items: [{ item_id: plan }],
        ...body,
      });
    },
    /** Action `invoice` (what a billing run does per subscription): the new invoice's id. */
    invoiceNow: async (pkg: number): Promise<number> => {
      await get().post(`/api/v3/package/${pkg}?action=invoice`, {}).expect(200);
      const invoice = await get().dataSource.manager.findOneOrFail(Invoice, {
        where: { package_id: pkg },
        order: { invoice_id: 'DESC' },
      });
      return invoice.invoice_id;
    },
    pkg: async (id: number): Promise<Json> => (await get().get(`/api/v3/package/${id}`).expect(200)).body.response,
    invoice: async (id: number): Promise<Json> => (await get().get(`/api/v3/invoice/${id}`).expect(200)).body.response,
    /** The customer's payment attempts (one per gateway charge), whatever other tests left due meanwhile. */
    attemptsOf: (customer: number) =>
      get().dataSource.manager.find(PaymentAttempt, {
        where: { customer_id: customer },
        order: { payment_attempt_id: 'ASC' },
      }),
    row: (invoiceId: number) => get().dataSource.manager.findOneBy(InvoiceCollection, { invoice_id: invoiceId }),
    /** Moves the test clock `ms` on from now (everything due on the way runs). */
    after: (ms: number) => moveClock(get(), new Date(get().clock.now().getTime() + ms)),
    /** The package/status events recorded for the subscription: the status each announced. */
    statusEvents: async (pkg: number): Promise<string[]> =>
      (
        await get().dataSource.manager.find(DomainEvent, {
          where: { context_str: 'package', context_id: String(pkg), event: 'status' },
          order: { domain_event_id: 'ASC' },
        })
      ).map((e) => (e.data.package as Json).package_status_str as string),
    mailsAbout: (invoiceId: number) =>
      get().dataSource.manager.find(MailMessage, {
        where: { context_str: 'invoice', context_id: invoiceId },
        order: { mail_message_id: 'ASC' },
      }),
  };
  return kit;
}

/**
 * Automatic collection and dunning (DESIGN §6 "Billing runs", issue 20 point 5): invoices
 * of crd/ach/tok subscriptions are charged once after they are issued, declines are
 * retried 3, 7 and 14 days after the first with a reminder each time, and statuses follow.
 * Time moves only through the test clock.
 */
describe('automatic collection and dunning', () => {
  let t: TestApp;
  let inbox: SmtpInbox;
  const kit = collectionKit(() => t);

  beforeAll(async () => {
    inbox = new SmtpInbox();
    const smtpUrl = await inbox.start();
    t = await createTestApp({ TEST_CLOCK: 'true', SMTP_URL: smtpUrl });
    t.clock.set(new Date('2026-03-02T16:00:00Z')); // Mar 2, 10:00 in Chicago
  });
  afterAll(async () => {
    await t.close();
    await inbox.stop();
  });

  it('charges a card subscription’s invoice once, even when collection runs twice at once and again', async () => {
    const customer = await newCustomer(t);
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer) });
    const mark = kit.gateway().records().length;
    const invoiceId = await kit.invoiceNow(pkg);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'due', package_id: pkg, failures: 0 });

    const collector = t.app.get(InvoiceCollector);
    await Promise.all([collector.collectDue(), collector.collectDue()]);
    await kit.after(MINUTE_MS);
    await collector.collectDue();

    const charges = kit.chargesSince(mark);
    expect(charges.map((c) => [c.result.outcome, c.amount.toFixed(2)])).toEqual([['success', '49.00']]);
    expect(await kit.invoice(invoiceId)).toMatchObject({ invoice_status_str: 'closed-paid', balance: 0 });
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'paid', next_attempt_datetime: null });
    const paid = await t.dataSource.manager.findOneByOrFail(Transaction, {
      gateway_transid: charges[0].result.transid,
    });
    expect(paid).toMatchObject({ status_str: 'ok-successful', memo: `Automatic collection of invoice ${invoiceId}` });
  });

  it('charges many due invoices in parallel lanes, each once, when two passes race', async () => {
    const customers = await Promise.all(Array.from({ length: 12 }, () => newCustomer(t)));
    const invoices: number[] = [];
    for (const customer of customers) {
      const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer) });
      invoices.push(await kit.invoiceNow(pkg));
    }
    const collector = t.app.get(InvoiceCollector);
    const passes = await Promise.all([collector.collectDue(), collector.collectDue()]);
    expect(passes[0] + passes[1]).toBe(12);
    for (const customer of customers) {
      expect((await kit.attemptsOf(customer)).map((a) => a.status)).toEqual(['completed']);
    }
    for (const id of invoices) expect((await kit.invoice(id)).invoice_status_str).toBe('closed-paid');
  });

  it('never charges an invoice voided before its collection ran', async () => {
    const customer = await newCustomer(t);
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer) });
    const invoiceId = await kit.invoiceNow(pkg);
    await t.post(`/api/v3/invoice/${invoiceId}?action=void`, {}).expect(200);
    const mark = kit.gateway().records().length;
    await kit.after(MINUTE_MS);
    expect(kit.chargesSince(mark)).toEqual([]);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'closed' });
  });

  it('never charges an invoice subscription (paymethod inv)', async () => {
    const customer = await newCustomer(t);
    await kit.card(customer);
    const pkg = await kit.subscription(customer, {});
    expect((await kit.pkg(pkg)).paymethod).toBe('inv');
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(20 * DAY_MS);
    expect(await kit.row(invoiceId)).toBeNull();
    expect(await kit.attemptsOf(customer)).toEqual([]);
    expect((await kit.invoice(invoiceId)).invoice_status_str).toBe('open-overdue');
    expect(await kit.statusEvents(pkg)).toEqual(['active-overdue']);
  });

  it('retries a declining card 3, 7 and 14 days after the first decline, with a reminder each time', async () => {
    const customer = await newCustomer(t, { superuser_email: 'dunned@payer.test' });
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer, DECLINING) });
    const mark = kit.gateway().records().length;
    const invoiceId = await kit.invoiceNow(pkg);
    const payLink = (await kit.invoice(invoiceId)).url_paylink as string;

    await kit.after(MINUTE_MS);
    const first = t.clock.now();
    expect(kit.chargesSince(mark).map((c) => c.result.outcome)).toEqual(['declined']);
    const reminder = await inbox.next();
    expect(reminder.recipients).toEqual(['dunned@payer.test']);
    expect(reminder.subject).toBe(`Payment failed for invoice #${invoiceId}`);
    expect(reminder.content).toContain('Your card was declined.');
    // Retries are counted in days of the account zone from the first decline (DST-proof).
    const retries = [3, 7, 14].map((days) => DateTime.fromJSDate(first, { zone: ZONE }).plus({ days }).toJSDate());
    const retryDate = (i: number) => accountDate(retries[i], ZONE);
    expect(reminder.content).toContain(`We will try again on ${retryDate(0)}.`);
    expect(reminder.content).toContain(payLink);
    // Due on receipt, issued today: not overdue yet.
    expect((await kit.pkg(pkg)).package_status_str).toBe('active-current');
    expect(await kit.invoice(invoiceId)).toMatchObject({
      declines: 1,
      sent: [expect.objectContaining({ method: 'email' })],
    });

    await kit.after(3 * DAY_MS + MINUTE_MS);
    expect(await kit.attemptsOf(customer)).toHaveLength(2);
    expect((await inbox.next()).content).toContain(`We will try again on ${retryDate(1)}.`);
    expect((await kit.pkg(pkg)).package_status_str).toBe('active-overdue');
    expect((await kit.invoice(invoiceId)).invoice_status_str).toBe('open-overdue');
    expect(await kit.statusEvents(pkg)).toEqual(['active-overdue']);

    await kit.after(11 * DAY_MS + MINUTE_MS);
    expect(await kit.attemptsOf(customer)).toHaveLength(4);
    expect((await inbox.next()).content).toContain(`We will try again on ${retryDate(2)}.`);
    const last = await inbox.next();
    expect(last.content).toContain('This was our last automatic attempt');
    expect(last.content).toContain(payLink);

    // The charges came exactly on the schedule, counted from the first decline.
    const attempts = await kit.attemptsOf(customer);
    expect(attempts.map((a) => a.created_datetime)).toEqual([first, ...retries]);
    expect(attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'failed', failures: 4, next_attempt_datetime: null });
    const invoice = await kit.invoice(invoiceId);
    expect(invoice).toMatchObject({ declines: 4, invoice_status_str: 'open-overdue', balance: 49 });
    expect((invoice.sent as Json[]).map((s) => [s.method, s.email])).toEqual(
      Array.from({ length: 4 }, () => ['email', 'dunned@payer.test']),
    );
    // Without DUNNING_CANCEL_AFTER_LAST_RETRY the subscription stays, overdue, and this invoice is
    // charged no more (the billing run bills the next cycle on an invoice of its own).
    await kit.after(30 * DAY_MS);
    const forThisInvoice = (await kit.attemptsOf(customer)).filter((a) =>
      a.applications.some((x) => x.invoice_id === invoiceId),
    );
    expect(forThisInvoice).toHaveLength(4);
    expect((await kit.pkg(pkg)).package_status_str).toBe('active-overdue');
  });

  it('pays the invoice when the card recovers on the second retry; the subscription is current again', async () => {
    const customer = await newCustomer(t);
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer, DECLINING) });
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(MINUTE_MS);
    await kit.after(3 * DAY_MS + MINUTE_MS);
    expect((await kit.pkg(pkg)).package_status_str).toBe('active-overdue');
    // The test gateway's cards always answer alike: the customer "recovers" by giving the
    // subscription a working card before the second retry.
    const good = await kit.card(customer);
    await t.post(`/api/v3/package/${pkg}?action=paymethod`, { paymethod: 'crd', creditcard_id: good }).expect(200);
    const mark = kit.gateway().records().length;

    await kit.after(4 * DAY_MS);
    expect(kit.chargesSince(mark).map((c) => [c.result.outcome, c.amount.toFixed(2)])).toEqual([['success', '49.00']]);
    expect(await kit.invoice(invoiceId)).toMatchObject({ invoice_status_str: 'closed-paid', declines: 2 });
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'paid', failures: 2 });
    expect((await kit.pkg(pkg)).package_status_str).toBe('active-current');
    expect(await kit.statusEvents(pkg)).toEqual(['active-overdue', 'active-current']);
    expect(await kit.mailsAbout(invoiceId)).toHaveLength(2);
    await kit.after(10 * DAY_MS);
    expect((await kit.attemptsOf(customer)).map((a) => a.status)).toEqual(['failed', 'failed', 'completed']);
  });

  it('charges a bank-account subscription once; the pending payment settles the invoice', async () => {
    const customer = await newCustomer(t);
    const account = { customer_id: customer, type: 'chec', number: '000123456789', routing: '110000000', name: 'Chk' };
    const achId = await createId(t, '/api/v3/ach', account);
    const pkg = await kit.subscription(customer, { ach_id: achId });
    const mark = kit.gateway().records().length;
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(MINUTE_MS);
    await kit.after(MINUTE_MS);
    expect(kit.chargesSince(mark).map((c) => [c.result.outcome, c.amount.toFixed(2)])).toEqual([['pending', '49.00']]);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'paid' });
    expect((await kit.invoice(invoiceId)).balance).toBe(0);
  });

  it('dunns a bank payment the bank returns: the invoice reopens and is retried', async () => {
    const customer = await newCustomer(t);
    const account = { customer_id: customer, type: 'chec', number: '000111111116', routing: '110000000', name: 'Chk' };
    const pkg = await kit.subscription(customer, { ach_id: await createId(t, '/api/v3/ach', account) });
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(MINUTE_MS);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'paid' });
    // Settled (returned) after ACH_SETTLEMENT_DAYS business days.
    await kit.after(6 * DAY_MS);
    expect((await kit.invoice(invoiceId)).invoice_status_str).toBe('open-overdue');
    const row = await kit.row(invoiceId);
    expect(row).toMatchObject({ status: 'due', failures: 1 });
    const reminders = await kit.mailsAbout(invoiceId);
    expect(reminders).toHaveLength(1);
    expect(reminders[0].body).toContain('The bank returned the payment.');
    await kit.after(row!.next_attempt_datetime!.getTime() - t.clock.now().getTime());
    expect((await kit.attemptsOf(customer)).map((a) => a.status)).toEqual(['completed', 'completed']);
  });

  it('records a reminder as printed for a customer whose dunning_delivery is print', async () => {
    const customer = await newCustomer(t, { dunning_delivery: 'print' });
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer, DECLINING) });
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(MINUTE_MS);
    expect((await kit.invoice(invoiceId)).sent).toEqual([expect.objectContaining({ method: 'print', email: null })]);
    expect(await kit.mailsAbout(invoiceId)).toEqual([]);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'due', failures: 1 });
  });

  it('charges a no_dunning customer once: no retry, no reminder', async () => {
    const customer = await newCustomer(t, { no_dunning: true });
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer, DECLINING) });
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(20 * DAY_MS);
    expect((await kit.attemptsOf(customer)).map((a) => a.status)).toEqual(['failed']);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'failed', failures: 1, next_attempt_datetime: null });
    expect(await kit.mailsAbout(invoiceId)).toEqual([]);
    expect((await kit.pkg(pkg)).package_status_str).toBe('active-overdue');
  });

  it('never charges again after a crash between the gateway and the record; the sweeper settles it', async () => {
    const customer = await newCustomer(t);
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer) });
    const invoiceId = await kit.invoiceNow(pkg);
    const mark = kit.gateway().records().length;
    const writer = t.app.get(TransactionWriter);
    const failing = jest.spyOn(writer, 'insert').mockRejectedValueOnce(new Error('injected crash'));
    const collector = t.app.get(InvoiceCollector);
    try {
      await collector.collectDue();
    } finally {
      failing.mockRestore();
    }
    expect(kit.chargesSince(mark)).toHaveLength(1);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'charging' });
    // A restart: collection runs again while the attempt is pending.
    await collector.collectDue();
    await kit.after(MINUTE_MS);
    expect(kit.chargesSince(mark)).toHaveLength(1);
    expect((await kit.invoice(invoiceId)).invoice_status_str).toBe('open-unpaid');

    await kit.after(ATTEMPT_GRACE_MS + MINUTE_MS);
    await kit.after(MINUTE_MS);
    expect(kit.chargesSince(mark)).toHaveLength(1);
    expect(await kit.invoice(invoiceId)).toMatchObject({ invoice_status_str: 'closed-paid', balance: 0 });
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'paid' });
  });

  it('charges once more after a crash before the gateway got the charge, once the sweeper frees it', async () => {
    const customer = await newCustomer(t);
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer) });
    const invoiceId = await kit.invoiceNow(pkg);
    const gateway = kit.gateway();
    const reset = jest.spyOn(gateway, 'charge').mockRejectedValueOnce(new Error('connection reset'));
    try {
      await t.app.get(InvoiceCollector).collectDue();
    } finally {
      reset.mockRestore();
    }
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'charging' });
    await kit.after(ATTEMPT_GRACE_MS + MINUTE_MS);
    await kit.after(MINUTE_MS);
    expect((await kit.attemptsOf(customer)).map((a) => a.status)).toEqual(['failed', 'completed']);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'paid', failures: 0 });
    expect((await kit.invoice(invoiceId)).invoice_status_str).toBe('closed-paid');
  });

  it('dunns an invoice whose subscription has no payment method left', async () => {
    const customer = await newCustomer(t);
    const card = await kit.card(customer);
    const pkg = await kit.subscription(customer, { creditcard_id: card });
    await t.del(`/api/v3/creditcard/${card}`).expect(200);
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(MINUTE_MS);
    expect(await kit.attemptsOf(customer)).toEqual([]);
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'due', failures: 1 });
    const [reminder] = await kit.mailsAbout(invoiceId);
    expect(reminder.body).toContain('No payment method to charge');
  });
});

describe('dunning with DUNNING_CANCEL_AFTER_LAST_RETRY=true', () => {
  let t: TestApp;
  const kit = collectionKit(() => t);

  beforeAll(async () => {
    t = await createTestApp({ TEST_CLOCK: 'true', DUNNING_CANCEL_AFTER_LAST_RETRY: 'true' });
    t.clock.set(new Date('2026-03-02T16:00:00Z'));
  });
  afterAll(async () => {
    await t.close();
  });

  it('cancels the subscription for non-payment when the last retry fails, with package/status', async () => {
    const customer = await newCustomer(t);
    const pkg = await kit.subscription(customer, { creditcard_id: await kit.card(customer, DECLINING) });
    const invoiceId = await kit.invoiceNow(pkg);
    await kit.after(13 * DAY_MS);
    expect((await kit.pkg(pkg)).package_status_str).toBe('active-overdue');
    expect(await kit.statusEvents(pkg)).toEqual(['active-overdue']);

    await kit.after(2 * DAY_MS);
    expect(await kit.pkg(pkg)).toMatchObject({
      package_status_str: 'canceled-nonpayment',
      package_status_state: 'c',
      cancel_reason: 'Non-payment',
      next_invoice_datetime: '', // no further invoice (an empty datetime on the wire)
    });
    expect(await kit.statusEvents(pkg)).toEqual(['active-overdue', 'canceled-nonpayment']);
    const mails = await kit.mailsAbout(invoiceId);
    expect(mails).toHaveLength(4);
    expect(mails[3].body).toContain('your subscription has been cancelled for non-payment');
    expect(await kit.row(invoiceId)).toMatchObject({ status: 'failed', failures: 4 });
  });
});
