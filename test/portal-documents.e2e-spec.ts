import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { fetchPdf, pathOf } from './support/hosted-pages';
import { pdfText } from './support/pdf-text';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

describe('hosted documents (url_permalink, url_pdflink, url_statementlink)', () => {
  let t: TestApp;
  let c: Catalog;
  let customer: number;
  let invoice: Json;

  beforeAll(async () => {
    t = await createTestApp({ DATETIME_FORMAT: 'sql', BUSINESS_NAME: 'Northwind Hosting LLC' });
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customer = await createId(t, '/api/v3/customer', {
      company: 'Acme Widgets',
      superuser_email: 'ap@acme.test',
      bill_addr1: '1 Main St',
      bill_city: 'Burlington',
      bill_state: 'VT',
      bill_postcode: '05401',
      bill_country: 'United States',
    });
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      refnumber: 'INV-1001',
      line_items: [
        { item_id: c.plan, line_quantity: 3 }, // 297.00 + 6 % = 17.82
        { item_id: c.consulting, line_quantity: '2.5', descrip: 'Design workshop' }, // 375.00
      ],
    });
    // A partial card payment, so the documents show a payment and a remaining balance.
    await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: customer,
        amount: 100,
        applied_to: [id],
        paymethods: [{ number: '4242424242424242', expdate_year: 2030, expdate_month: 12 }],
      })
      .expect(200);
    invoice = (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
    expect(invoice).toMatchObject({ total: 689.82, balance: 589.82 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('the permalink is an HTML invoice with lines, taxes, totals, payments and balance', async () => {
    const res = await t.http.get(pathOf(invoice.url_permalink as string)).expect(200);
    expect(res.type).toBe('text/html');
    for (const text of [
      'Northwind Hosting LLC',
      'Invoice #INV-1001',
      'Acme Widgets',
      '1 Main St',
      'Plan',
      'Design workshop',
      'State tax',
      '$ 17.82',
      '$ 689.82',
      '$ 100.00',
      '$ 589.82',
    ]) {
      expect(res.text).toContain(text);
    }
    expect(res.text).toContain(`href="${invoice.url_paylink as string}"`);
    // Browser security headers on hosted pages only; the API's headers stay as they were.
    expect(res.get('Content-Security-Policy')).toContain("default-src 'self'");
    expect(res.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.get('Cache-Control')).toBe('no-store');
    const api = await t.get(`/api/v3/invoice/${invoice.invoice_id as number}`).expect(200);
    expect(api.get('Content-Security-Policy')).toBeUndefined();
    expect(api.get('Set-Cookie')).toBeUndefined();
  });

  it('the PDF link is a real PDF with the number, every line, the total and the balance', async () => {
    const text = await pdfText(await fetchPdf(t.http, pathOf(invoice.url_pdflink as string), 'invoice.pdf'));
    for (const expected of [
      'Northwind Hosting LLC',
      '#INV-1001',
      'Acme Widgets',
      'Burlington VT 05401',
      'Plan',
      '$ 297.00',
      'Design workshop',
      '$ 375.00',
      'State tax',
      '$ 17.82',
      '$ 689.82',
      '$ 100.00',
      '$ 589.82',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('the statement link shows the customer statement as HTML and as PDF', async () => {
    const cust = (await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response as Json;
    const page = await t.http.get(pathOf(cust.url_statementlink as string)).expect(200);
    expect(page.type).toBe('text/html');
    for (const text of ['Statement', 'Acme Widgets', '#INV-1001', '$ 689.82', '$ 589.82', '$ 100.00']) {
      expect(page.text).toContain(text);
    }
    const pdfPath = /href="(\/r\/statement\/pdf\/[a-z0-9]{12})"/.exec(page.text)?.[1] ?? '';
    const text = await pdfText(await fetchPdf(t.http, pdfPath));
    for (const expected of ['STATEMENT', 'Acme Widgets', '#INV-1001', '$ 689.82', '$ 589.82', '$ 100.00']) {
      expect(text).toContain(expected);
    }
  });

  it('bad or unknown tokens answer an HTML 404 page, a voided invoice a 410, never the JSON envelope', async () => {
    for (const path of [
      '/r/invoice/view/zzzzzzzzzzzz',
      '/r/invoice/pdf/zzzzzzzzzzzz',
      '/r/invoice/view/not-a-token',
      '/r/statement/i/zzzzzzzzzzzz',
      '/r/statement/pdf/zzzzzzzzzzzz',
      '/r/trans/pay/zzzzzzzzzzzz',
      `/r/trans/pay/${invoice.token as string}/zzzzzzzzzzzz`,
      '/r/paymethod/i/zzzzzzzzzzzz',
    ]) {
      const res = await t.http.get(path).expect(404);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('not valid');
    }
    const voidable = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: c.plan }] });
    await t.post(`/api/v3/invoice/${voidable}?action=void`).expect(200);
    const voided = (await t.get(`/api/v3/invoice/${voidable}`).expect(200)).body.response as Json;
    const res = await t.http.get(pathOf(voided.url_paylink as string)).expect(410);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('voided');
  });
});
