import { Invoice } from 'src/invoices/entities/invoice.entity';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { createId } from './support/catalog-fixtures';
import { newCard, newCustomer } from './support/factories';
import { FakeStripe, stripeEnv, StripeRequest } from './support/fake-stripe';
import { createTestApp, TestApp } from './support/test-app';
import { moveClock } from './support/test-clock';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** "Due on Receipt": the invoice is overdue from the day after it is issued. */
const DUE_ON_RECEIPT = 1;

/**
 * Billing runs with automatic collection and dunning through Stripe (issue 38): each
 * due invoice is charged once, off-session, on the customer's stored PaymentMethod; a
 * declined one is charged again on the dunning schedule (3 and 7 days after the first).
 */
describe('Stripe: billing runs, collection and dunning', () => {
  let t: TestApp;
  let fake: FakeStripe;

  beforeAll(async () => {
    fake = await FakeStripe.start();
    t = await createTestApp({ ...stripeEnv(fake), TEST_CLOCK: 'true' });
    t.clock.set(new Date('2026-03-02T16:00:00Z')); // Mar 2, 10:00 in Chicago
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const after = (ms: number) => moveClock(t, new Date(t.clock.now().getTime() + ms));
  const intents = (): StripeRequest[] => fake.sent('POST', '/v1/payment_intents');
  /** The PaymentIntents asked for one customer's payment attempts (their references). */
  const intentsOf = async (customer: number): Promise<StripeRequest[]> => {
    const attempts = await t.dataSource.manager.findBy(PaymentAttempt, { customer_id: customer });
    const references = new Set(attempts.map((a) => a.reference));
    return intents().filter((r) => references.has(r.idempotencyKey ?? ''));
  };
  const subscribed = async (number: string): Promise<{ customer: number; pkg: number }> => {
    const customer = await newCustomer(t);
    const card = await createId(t, '/api/v3/creditcard', { customer_id: customer, ...newCard({ number }) });
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 49 } });
    const pkg = await createId(t, '/api/v3/package', {
      customer_id: customer,
      terms_id: DUE_ON_RECEIPT,
      paycycle: 'mon',
      creditcard_id: card,
      line_items: [{ item_id: plan }],
    });
    return { customer, pkg };
  };

  it('charges each due invoice once through Stripe and retries a declined one on the dunning schedule', async () => {
    const paying = await Promise.all([subscribed('4242424242424242'), subscribed('5555555555554444')]);
    const declining = await subscribed('4000000000000002');
    const mark = intents().length;

    await after(HOUR_MS); // the billing run bills the first cycles, collection charges them
    await after(HOUR_MS); // a second pass charges nothing again
    for (const { customer, pkg } of [...paying, declining]) {
      const invoices = await t.dataSource.manager.findBy(Invoice, { package_id: pkg });
      expect(invoices).toHaveLength(1);
      const sent = await intentsOf(customer);
      expect(sent).toHaveLength(1);
      expect(sent[0].form).toMatchObject({ amount: '4900', currency: 'usd', off_session: 'true', confirm: 'true' }); // 49.00 × 100
    }
    expect(intents().length - mark).toBe(3);
    for (const { pkg } of paying) {
      const [invoice] = (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${pkg}`).expect(200)).body.response;
      expect(invoice).toMatchObject({ invoice_status_str: 'closed-paid', balance: 0 });
    }
    const [unpaid] = (await t.get(`/api/v3/invoice?where=package_id:EQUALS:${declining.pkg}`).expect(200)).body
      .response;
    expect(unpaid).toMatchObject({ balance: 49, declines: 1 });

    // Dunning: again 3 days after the first decline, then 7 days after it.
    await after(3 * DAY_MS);
    expect(await intentsOf(declining.customer)).toHaveLength(2);
    await after(3 * DAY_MS);
    expect(await intentsOf(declining.customer)).toHaveLength(2); // day 6: nothing due
    await after(DAY_MS + HOUR_MS);
    const retries = await intentsOf(declining.customer);
    expect(retries).toHaveLength(3);
    // Each charge is a PaymentIntent of its own (its own reference), on the same Stripe Customer.
    expect(new Set(retries.map((r) => r.idempotencyKey)).size).toBe(3);
    expect(new Set(retries.map((r) => r.form.customer)).size).toBe(1);
    for (const { customer } of paying) expect(await intentsOf(customer)).toHaveLength(1);
  });
});
