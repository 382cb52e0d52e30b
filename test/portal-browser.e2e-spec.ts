import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium } from 'playwright-core';
import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { chromiumPath, freePort } from './support/chromium';
import { ARTIFACTS } from './support/hosted-pages';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

const BOUND_MS = 60_000;

describe('customer portal in a real browser (chromium)', () => {
  let t: TestApp;
  let c: Catalog;
  let browser: Browser;
  let base: string;
  let contactA: number;
  let customerA: number;
  let invoiceA: Json;
  let invoiceB: Json;

  async function readInvoice(id: number): Promise<Json> {
    return (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
  }

  async function loginUrl(): Promise<string> {
    const res = await t.post(`/api/v3/user/${contactA}?action=getLoginURL`, {}).expect(200);
    return res.body.response as string;
  }

  beforeAll(async () => {
    const executablePath = chromiumPath();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: base, BUSINESS_NAME: 'Northwind Hosting LLC' });
    await t.app.listen(port, '127.0.0.1');
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customerA = await createId(t, '/api/v3/customer', {
      company: 'Alpha Co',
      bill_addr1: '12 Harbour Road',
      bill_city: 'Portland',
      bill_state: 'ME',
      bill_postcode: '04101',
      bill_country: 'United States',
    });
    const customerB = await createId(t, '/api/v3/customer', { company: 'Beta Co' });
    contactA = await createId(t, '/api/v3/user', { customer_id: customerA, username: 'alpha', email: 'ap@alpha.test' });
    invoiceA = await readInvoice(
      await createId(t, '/api/v3/invoice', {
        customer_id: customerA,
        refnumber: 'A-1001',
        line_items: [
          { item_id: c.plan, line_quantity: 2 },
          { item_id: c.consulting, line_quantity: '1.5', descrip: 'Onboarding workshop' },
        ],
      }),
    );
    invoiceB = await readInvoice(
      await createId(t, '/api/v3/invoice', {
        customer_id: customerB,
        refnumber: 'B-2001',
        line_items: [{ item_id: c.plan }],
      }),
    );
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'], timeout: 20_000 });
  }, BOUND_MS);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signedInContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 900, height: 1100 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const res = await page.goto(await loginUrl());
    expect(res?.status()).toBe(200);
    await page.close();
    return context;
  }

  it(
    'signs in with a login URL, sees the invoices, is refused a declined card, pays with a test card',
    async () => {
      const context = await browser.newContext({ viewport: { width: 900, height: 1100 } });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const url = await loginUrl();
      expect((await page.goto(url))?.status()).toBe(200);
      await page.getByRole('heading', { name: 'Welcome, Alpha Co' }).waitFor();

      await page.getByRole('navigation').getByRole('link', { name: 'Invoices' }).click();
      await page.getByRole('link', { name: '#A-1001' }).waitFor();
      expect(await page.getByText('#B-2001').count()).toBe(0);

      await page.getByRole('link', { name: '#A-1001' }).click();
      await page.getByRole('heading', { name: 'Invoice #A-1001' }).waitFor();
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'invoice-page.png'), fullPage: true });
      const pdf = await page.request.get(invoiceA.url_pdflink as string);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      const pdfFile = join(ARTIFACTS, 'invoice-browser.pdf');
      writeFileSync(pdfFile, await pdf.body());
      // The PDF's first page as an image, to look at (poppler-utils; CI installs it with chromium).
      try {
        execFileSync('pdftoppm', ['-png', '-r', '80', '-singlefile', pdfFile, join(ARTIFACTS, 'invoice-pdf-page1')]);
      } catch (error) {
        throw new Error(`pdftoppm could not render the PDF (apt-get install -y poppler-utils): ${String(error)}`, {
          cause: error,
        });
      }

      await page.getByRole('link', { name: /^Pay \$/ }).click();
      await page.getByRole('heading', { name: 'Pay invoice #A-1001' }).waitFor();
      const cardForm = page.locator('form', { has: page.getByLabel('Card number') });
      const payByCard = async (number: string): Promise<void> => {
        await cardForm.getByLabel('Card number').fill(number);
        await cardForm.getByLabel('Expiry month (MM)').fill('12');
        await cardForm.getByLabel('Expiry year (YYYY)').fill('2030');
        await cardForm.getByLabel('Security code').fill('123');
        await cardForm.getByRole('button', { name: /by card/ }).click();
      };
      await payByCard('4000000000000002');
      await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
      expect(await readInvoice(invoiceA.invoice_id as number)).toMatchObject({
        balance: invoiceA.balance,
        is_paid: false,
      });

      await payByCard('4242424242424242');
      await page.getByText('Thank you: your payment was received').waitFor();
      expect(await readInvoice(invoiceA.invoice_id as number)).toMatchObject({ balance: 0, is_paid: true });

      // The login URL was single use.
      const other = await browser.newContext();
      const again = await (await other.newPage()).goto(url);
      expect(again?.status()).toBe(410);
      expect(await again?.text()).toContain('expired or was already used');
      await other.close();
      await context.close();
    },
    BOUND_MS,
  );

  it(
    "refuses another customer's invoice, a forged form post and a tampered session cookie",
    async () => {
      const context = await signedInContext();
      const page = await context.newPage();

      const foreign = await page.goto(`${base}/portal/invoices/${invoiceB.invoice_id as number}`);
      expect(foreign?.status()).toBe(404);
      expect(await page.textContent('main')).toContain('no such invoice');
      expect(await page.textContent('body')).not.toContain('B-2001');

      // A post with the session cookie but no CSRF token (what a forging site can send).
      const forged = await page.request.post(`${base}/portal/paymethods`, {
        form: { method: 'card', number: '4242424242424242', expdate_month: '12', expdate_year: '2030' },
      });
      expect(forged.status()).toBe(403);
      const customer = (await t.get(`/api/v3/customer/${invoiceA.customer_id as number}`).expect(200)).body
        .response as Json;
      expect(customer.default_creditcard_id).toBeNull();

      const [session] = (await context.cookies(base)).filter((k) => k.name === 'portal_session');
      const value = decodeURIComponent(session.value);
      const tampered = value.replace(/"customerId":\d+/, `"customerId":${invoiceB.customer_id as number}`);
      expect(tampered).not.toBe(value);
      await context.addCookies([{ ...session, value: encodeURIComponent(tampered) }]);
      const refused = await page.goto(`${base}/portal/invoices`);
      expect(refused?.status()).toBe(401);
      expect(await page.textContent('main')).toContain('could not be verified');
      await context.close();
    },
    BOUND_MS,
  );

  it(
    'accepts a quote from the portal through its accept link; the API finds the subscription',
    async () => {
      const quoteId = await createId(t, '/api/v3/quote', {
        customer_id: customerA,
        refnumber: 'Q-3001',
        paycycle: 'mon',
        nickname: 'Managed hosting',
        line_items: [{ item_id: c.plan, line_quantity: 2 }],
      });
      const quote = (await t.get(`/api/v3/quote/${quoteId}`).expect(200)).body.response as Json;
      const context = await signedInContext();
      const page = await context.newPage();

      await page.goto(`${base}/portal/quotes`);
      await page.getByRole('link', { name: '#Q-3001' }).waitFor();
      await page.getByRole('link', { name: '#Q-3001' }).click();
      await page.getByRole('heading', { name: 'Quote #Q-3001' }).waitFor();
      await page.screenshot({ path: join(ARTIFACTS, 'quote-page.png'), fullPage: true });
      await page.getByRole('link', { name: 'Accept this quote' }).click();
      expect(page.url()).toBe(quote.url_acceptlink);
      // Opening the link answered nothing: the form does.
      expect((await t.get(`/api/v3/quote/${quoteId}`).expect(200)).body.response.quote_status_str).toBe('open-new');
      await page.getByRole('button', { name: 'Accept quote #Q-3001' }).click();
      await page.getByText('Thank you: quote #Q-3001 is accepted.').waitFor();

      const accepted = (await t.get(`/api/v3/quote/${quoteId}`).expect(200)).body.response as Json;
      expect(accepted.quote_status_str).toBe('closed-won');
      const subscription = (await t.get(`/api/v3/package/${accepted.package_id as number}`).expect(200)).body
        .response as Json;
      expect(subscription).toMatchObject({ customer_id: customerA, nickname: 'Managed hosting' });
      await context.close();
    },
    BOUND_MS,
  );
});
