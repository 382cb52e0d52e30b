import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { linksIn } from './support/hosted-pages';
import { SmtpInbox } from './support/smtp-inbox';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

const BASE = 'https://billing.example.test';
const CARD = { number: '4242424242424242', expdate_year: 2030, expdate_month: 12 };

describe('mail through SMTP: templates, overrides, links', () => {
  let t: TestApp;
  let c: Catalog;
  let inbox: SmtpInbox;
  let customer: number;
  let contact: number;

  /** Each link answers a page (2xx), not the JSON 400 it used to. */
  async function expectWorkingLinks(content: string, atLeast: number): Promise<string[]> {
    const links = linksIn(content, BASE);
    expect(links.length).toBeGreaterThanOrEqual(atLeast);
    for (const link of links) {
      const res = await t.http.get(link);
      expect([link, res.status, res.type]).toEqual([
        link,
        200,
        expect.stringMatching(/^(text\/html|application\/pdf)$/),
      ]);
    }
    return links;
  }

  beforeAll(async () => {
    inbox = new SmtpInbox();
    const smtpUrl = await inbox.start();
    t = await createTestApp({ SMTP_URL: smtpUrl, MAIL_FROM: 'billing@northwind.test', BUSINESS_NAME: 'Northwind' });
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customer = await createId(t, '/api/v3/customer', { company: 'Acme', superuser_email: 'ap@acme.test' });
    const read = (await t.get(`/api/v3/customer/${customer}`).expect(200)).body.response as Json;
    contact = read.superuser_id as number;
    await t.put(`/api/v3/user/${contact}`, { username: 'acme-ap' }).expect(202);
  });
  afterAll(async () => {
    await t.close();
    await inbox.stop();
  });

  it('invoice: to the billing contact, with working view, PDF and pay links, recorded in sent', async () => {
    const id = await createId(t, '/api/v3/invoice', {
      customer_id: customer,
      refnumber: 'N-7',
      line_items: [{ item_id: c.plan }],
    });
    await t.post(`/api/v3/invoice/${id}?action=email`).expect(200);
    const mail = await inbox.next();
    expect(mail.recipients).toEqual(['ap@acme.test']);
    expect(mail.envelopeFrom).toBe('billing@northwind.test');
    expect(mail.subject).toBe('Invoice #N-7');
    expect(mail.content).toContain('Hello Acme,');
    expect(mail.content).toContain('Total: $ 104.94');
    expect(mail.content).toContain('Content-Type: text/html');
    const links = await expectWorkingLinks(mail.content, 3);
    expect(links.some((l) => l.startsWith('/r/trans/pay/'))).toBe(true);
    const invoice = (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
    expect((invoice.sent as Json[]).map((s) => [s.method, s.email])).toEqual([['email', 'ap@acme.test']]);
  });

  it('invoice: the email overrides (to, cc, bcc, subject, body, html, from) as SPEC gives them', async () => {
    const id = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: c.plan }] });
    await t
      .post(`/api/v3/invoice/${id}?action=email`, {
        email: 'boss@acme.test',
        cc: 'cc@acme.test',
        bcc: 'audit@acme.test',
        subject: 'Your bill',
        body: 'Plain words only.',
        html: '<p>Rich words only.</p>',
        from: 'ar@northwind.test',
      })
      .expect(200);
    const mail = await inbox.next();
    expect(mail.recipients.sort()).toEqual(['audit@acme.test', 'boss@acme.test', 'cc@acme.test']);
    expect(mail.content).not.toMatch(/^Bcc:/im);
    expect(mail.subject).toBe('Your bill');
    expect(mail.from).toBe('ar@northwind.test');
    expect(mail.envelopeFrom).toBe('ar@northwind.test');
    expect(mail.content).toContain('Plain words only.');
    expect(mail.content).toContain('<p>Rich words only.</p>');
    expect(mail.content).not.toContain('View the invoice');
  });

  it('payment receipt and payment failure, with the statement and payment-method links', async () => {
    const paid = await t
      .post('/api/v3/transaction?action=pay', { customer_id: customer, amount: 20, paymethods: [CARD] })
      .expect(200);
    await t.post(`/api/v3/transaction/${paid.body.response.id as number}?action=email`).expect(200);
    const receipt = await inbox.next();
    expect(receipt.recipients).toEqual(['ap@acme.test']);
    expect(receipt.subject).toBe('Payment receipt');
    expect(receipt.content).toContain('$ 20.00');
    await expectWorkingLinks(receipt.content, 1);

    const declined = await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: customer,
        amount: 20,
        paymethods: [{ ...CARD, number: '4000000000000002' }],
      })
      .expect(400);
    await t.post(`/api/v3/transaction/${declined.body.details.transaction_id as number}?action=email`).expect(200);
    const failure = await inbox.next();
    expect(failure.subject).toBe('Payment failed');
    expect(failure.content).toContain('Your card was declined.');
    const links = await expectWorkingLinks(failure.content, 2);
    expect(links.some((l) => l.startsWith('/r/paymethod/i/'))).toBe(true);
  });

  it('welcome: the subscription welcome mail, with statement and payment-method links', async () => {
    const id = await createId(t, '/api/v3/package', {
      customer_id: customer,
      nickname: 'Hosting',
      line_items: [{ item_id: c.plan }],
    });
    await t.post(`/api/v3/package/${id}?action=welcome`).expect(200);
    const mail = await inbox.next();
    expect(mail.recipients).toEqual(['ap@acme.test']);
    expect(mail.subject).toBe('Welcome');
    expect(mail.content).toContain('Your subscription "Hosting" with Northwind is active.');
    await expectWorkingLinks(mail.content, 2);
  });

  it('password reset and password set, with a working portal link', async () => {
    await t.post(`/api/v3/user/${contact}?action=password`).expect(200);
    const reset = await inbox.next();
    expect(reset.recipients).toEqual(['ap@acme.test']);
    expect(reset.subject).toBe('Reset your Northwind portal password');
    const [link] = linksIn(reset.content, BASE);
    expect(link).toMatch(/^\/portal\/password-reset\/[A-Za-z0-9_-]{43}$/);
    const page = await t.http.get(link).expect(200);
    expect(page.text).toContain('New password');

    await t.post(`/api/v3/user/${contact}?action=password`, { password: 'correct horse battery' }).expect(200);
    const set = await inbox.next();
    expect(set.subject).toBe('Your Northwind portal password was changed');
    expect(set.content).toContain('Username: acme-ap');
    await expectWorkingLinks(set.content, 1);
  });
});
