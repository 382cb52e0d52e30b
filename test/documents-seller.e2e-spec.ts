import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { fetchPdf, pathOf } from './support/hosted-pages';
import { pdfText } from './support/pdf-text';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

/** A 1×1 PNG: enough for pdfkit to place and the page to carry as a data: URI. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Issue 37, deliver 11 and 12: quote documents show the one-time part apart from the
 * recurring part; invoices, quotes and statements (pages and PDFs) carry the seller's address,
 * tax id and logo (BUSINESS_ADDRESS, BUSINESS_TAX_ID, BUSINESS_LOGO_PATH), and an invoice PDF
 * with a balance prints its pay link.
 */
describe('documents: the seller, and a quote’s one-time part', () => {
  let t: TestApp;
  let c: Catalog;
  let dir: string;
  let customer: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seller-logo-'));
    const logo = join(dir, 'logo.png');
    writeFileSync(logo, LOGO_PNG);
    t = await createTestApp({
      DATETIME_FORMAT: 'sql',
      BUSINESS_NAME: 'Northwind Hosting LLC',
      BUSINESS_ADDRESS: '1 Harbor Way\\nPortland OR 97201',
      BUSINESS_TAX_ID: 'US-EIN 12-3456789',
      BUSINESS_LOGO_PATH: logo,
    });
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customer = await createId(t, '/api/v3/customer', { company: 'Acme Widgets', superuser_email: 'ap@acme.test' });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const SELLER_TEXT = ['Northwind Hosting LLC', '1 Harbor Way', 'Portland OR 97201', 'Tax ID: US-EIN 12-3456789'];
  const expectSellerOnPage = (html: string) => {
    for (const text of SELLER_TEXT) expect(html).toContain(text);
    expect(html).toContain(`src="data:image/png;base64,${LOGO_PNG.toString('base64')}"`);
  };
  const expectSellerInPdf = (text: string) => {
    for (const expected of SELLER_TEXT) expect(text).toContain(expected);
  };

  it('an invoice page and PDF carry the seller; the PDF of an unpaid invoice prints its pay link', async () => {
    // Plan 99.00 + 6 % tax (5.94) = 104.94, unpaid.
    const id = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: c.plan }] });
    const invoice = (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
    expect(invoice).toMatchObject({ total: 104.94, balance: 104.94 });
    expectSellerOnPage((await t.http.get(pathOf(invoice.url_permalink as string)).expect(200)).text);
    const text = await pdfText(await fetchPdf(t.http, pathOf(invoice.url_pdflink as string)));
    expectSellerInPdf(text);
    expect(text.replace(/\s+/g, ' ')).toContain(`Pay $ 104.94 online: ${invoice.url_paylink as string}`);
  });

  it('a paid invoice’s PDF prints no pay link', async () => {
    const id = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: c.plan }] });
    await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: customer,
        amount: 104.94,
        applied_to: [id],
        paymethods: [{ number: '4242424242424242', expdate_year: 2030, expdate_month: 12 }],
      })
      .expect(200);
    const invoice = (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
    expect(invoice.balance).toBe(0);
    const text = await pdfText(await fetchPdf(t.http, pathOf(invoice.url_pdflink as string)));
    expect(text).not.toContain('online:');
  });

  it('a monthly quote with a one-time line: due on acceptance apart from then monthly, with the seller', async () => {
    const install = await createId(t, '/api/v3/item', {
      name: 'Installation',
      pricemodel: { pricemodel: 'fla', base: 250, paycycle: 'one' },
    });
    const quoteId = await createId(t, '/api/v3/quote', {
      customer_id: customer,
      paycycle: 'mon',
      refnumber: 'Q-200',
      line_items: [{ item_id: c.plan }, { item_id: install }],
    });
    const quote = (await t.get(`/api/v3/quote/${quoteId}`).expect(200)).body.response as Json;
    // Plan 99.00 + 6 % (5.94) + installation 250.00 untaxed: total 354.94, nothing of setup.
    expect(quote).toMatchObject({ subtotal: 349, taxes: 5.94, total: 354.94, setup: 0, upfront: 354.94 });
    const page = (await t.http.get(pathOf(quote.url_permalink as string)).expect(200)).text;
    expectSellerOnPage(page);
    // Due on acceptance: 354.94 (all of it); then monthly: 354.94 − 250.00 = 104.94.
    expect(page).toMatch(/One-time items<\/th><td class="num">\$ 250\.00</);
    expect(page).toMatch(/Due on acceptance<\/th><td class="num" id="upfront">\$ 354\.94</);
    expect(page).toMatch(/Then monthly<\/th><td class="num" id="recurring">\$ 104\.94</);
    expect(page).not.toContain('Total (Monthly)');
    const text = (await pdfText(await fetchPdf(t.http, pathOf(quote.url_pdflink as string)))).replace(/\s+/g, ' ');
    expectSellerInPdf(text);
    expect(text).toContain('One-time items $ 250.00');
    expect(text).toContain('Due on acceptance $ 354.94');
    expect(text).toContain('Then monthly $ 104.94');
  });

  it('the statement page and PDF carry the seller', async () => {
    const cust = (await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response as Json;
    const page = await t.http.get(pathOf(cust.url_statementlink as string)).expect(200);
    expectSellerOnPage(page.text);
    const pdfPath = /href="(\/r\/statement\/pdf\/[a-z0-9]{12})"/.exec(page.text)?.[1] ?? '';
    expectSellerInPdf(await pdfText(await fetchPdf(t.http, pdfPath)));
  });
});
