import { Browser, chromium, Request } from 'playwright-core';
import { createId } from './support/catalog-fixtures';
import { chromiumPath, freePort } from './support/chromium';
import { FakeStripe, stripeEnv } from './support/fake-stripe';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

const STRIPE_JS = /^https:\/\/js\.stripe\.com\/v3\//;

/**
 * Stripe.js cannot load offline: this stands in for it at the browser's network layer.
 * Its Elements mount a placeholder, and creating the PaymentMethod hands `pm` to the
 * page's token callback, as the real library's promise would.
 */
function stripeJsStub(pm: string): string {
  return `
    window.stripeStub = { keys: [], mounted: 0 };
    window.Stripe = function (key) {
      window.stripeStub.keys.push(key);
      return {
        elements: function () {
          return { create: function () {
            return { mount: function (selector) {
              window.stripeStub.mounted++;
              document.querySelector(selector).textContent = 'Stripe card field (stub)';
            } };
          } };
        },
        createPaymentMethod: function () {
          window.billingCardToken(${JSON.stringify(pm)});
          return new Promise(function () {});
        },
        handleNextAction: function () { return new Promise(function () {}); },
      };
    };`;
}

/**
 * With PAYMENT_GATEWAY=stripe the hosted pay page takes the card through Stripe.js
 * (issue 38): it loads Stripe.js, has no card-number input of its own, and posts only
 * Stripe's `pm_…` id, which the server charges as one PaymentIntent.
 */
describe('Stripe pay page in a real browser (chromium)', () => {
  let t: TestApp;
  let fake: FakeStripe;
  let browser: Browser;

  beforeAll(async () => {
    const executablePath = chromiumPath();
    fake = await FakeStripe.start();
    const port = await freePort();
    t = await createTestApp({
      ...stripeEnv(fake),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      BUSINESS_NAME: 'Northwind Hosting LLC',
    });
    await t.app.listen(port, '127.0.0.1');
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'], timeout: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await fake?.close();
  });

  it('loads Stripe.js, has no card input of its own, and posts only the pm_ id', async () => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Alpha Co' });
    const item = await createId(t, '/api/v3/item', { name: 'Hosting', pricemodel: { pricemodel: 'fla', base: 10 } });
    const invoiceId = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      refnumber: 'S-2001',
      line_items: [{ item_id: item, descrip: 'Managed hosting, March', line_rate: '64.50', line_quantity: 2 }],
    });
    const invoice = (await t.get(`/api/v3/invoice/${invoiceId}`).expect(200)).body.response as Json;
    const pm = fake.clientMethod('4242424242424242', 2031, 7);

    const context = await browser.newContext();
    const stubbed: string[] = [];
    await context.route(STRIPE_JS, async (route) => {
      stubbed.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'application/javascript', body: stripeJsStub(pm) });
    });
    const page = await context.newPage();
    const posts: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request);
    });
    expect((await page.goto(invoice.url_paylink as string))?.status()).toBe(200);
    await page.getByText('Stripe card field (stub)').waitFor();

    expect(stubbed).toEqual(['https://js.stripe.com/v3/']);
    expect(await page.evaluate(() => (window as unknown as { stripeStub: Json }).stripeStub)).toEqual({
      keys: ['pk_test_billing_0123456789'],
      mounted: 1,
    });
    // No card data field of this page's own: the card lives in Stripe's field.
    expect(await page.locator('input[name="number"], input[name="cvv"], input[autocomplete^="cc-"]').count()).toBe(0);
    // What is being paid, beside the form: business, invoice number, due date, line, amount due.
    const summary = page.locator('#pay-summary');
    await summary.getByText('Northwind Hosting LLC').waitFor();
    await summary.getByText('Invoice #S-2001').waitFor();
    await summary.getByText('Due: 2026-04-09').waitFor(); // 10 March, Net 30 (the default terms)
    await summary.getByText('Managed hosting, March').waitFor();
    expect(await page.locator('#amount-due').textContent()).toBe('$ 129.00'); // 64.50 × 2

    await page.getByRole('button', { name: 'Pay $ 129.00 by card' }).click();
    await page.getByText('Thank you: your payment was received').waitFor();

    expect(posts).toHaveLength(1);
    const sent = Object.fromEntries(new URLSearchParams(posts[0].postData() ?? ''));
    expect(Object.keys(sent).sort()).toEqual(['_csrf', 'method', 'payment_method']);
    expect(sent).toMatchObject({ method: 'stripe', payment_method: pm });

    const [intent] = fake.sent('POST', '/v1/payment_intents');
    // $ 129.00 in cents
    expect(intent.form).toMatchObject({ amount: '12900', currency: 'usd', payment_method: pm, confirm: 'true' });
    expect(intent.form.off_session).toBeUndefined();
    const after = (await t.get(`/api/v3/invoice/${invoiceId}`).expect(200)).body.response as Json;
    expect(after).toMatchObject({ balance: 0, is_paid: true });
    await context.close();
  }, 90_000);
});
