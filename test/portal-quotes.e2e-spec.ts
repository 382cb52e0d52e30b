import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { browserOf, csrfOf, fetchPdf, linksIn, pathOf } from './support/hosted-pages';
import { pdfText } from './support/pdf-text';
import { SmtpInbox } from './support/smtp-inbox';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

const BASE = 'http://portal.test';
/** An HTML page, never the API's JSON envelope. */
function expectPage(res: request.Response, text: string): void {
  expect(res.type).toBe('text/html');
  expect(res.text).toContain(text);
  expect(res.text).not.toContain('"response":false');
}

describe('quote links, documents, mail and portal quotes', () => {
  let t: TestApp;
  let c: Catalog;
  let inbox: SmtpInbox;
  let customerA: number;
  let childOfA: number;
  let customerB: number;
  let contactA: number;

  const browser = (): TestAgent => browserOf(t);

  async function readQuote(id: number): Promise<Json> {
    return (await t.get(`/api/v3/quote/${id}`).expect(200)).body.response as Json;
  }

  async function newQuote(body: Json): Promise<Json> {
    return readQuote(
      await createId(t, '/api/v3/quote', {
        customer_id: customerA,
        paycycle: 'mon',
        line_items: [{ item_id: c.plan }],
        ...body,
      }),
    );
  }

  async function eventsOf(quoteId: number): Promise<string[]> {
    const rows = await t.dataSource.query<Json[]>(
      `SELECT event FROM domain_event WHERE context_str = 'quote' AND context_id = '${quoteId}' ORDER BY domain_event_id`,
    );
    return rows.map((r) => r.event as string);
  }

  /** Opens an answer link in a browser (a fresh one by default) and confirms its form. */
  async function confirm(link: string, status: number, agent = browser()): Promise<request.Response> {
    const page = await agent.get(pathOf(link)).expect(200);
    return agent
      .post(pathOf(link))
      .type('form')
      .send({ _csrf: csrfOf(page.text) })
      .expect(status);
  }

  beforeAll(async () => {
    inbox = new SmtpInbox();
    const smtpUrl = await inbox.start();
    t = await createTestApp({
      // Plain http, so the test's cookie jar sends the session and CSRF cookies back.
      PUBLIC_URL: BASE,
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'billing@northwind.test',
      BUSINESS_NAME: 'Northwind Hosting LLC',
      DATETIME_FORMAT: 'sql',
    });
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customerA = await createId(t, '/api/v3/customer', {
      company: 'Acme Widgets',
      superuser_email: 'ap@acme.test',
      bill_addr1: '48 State St',
      bill_city: 'Albany',
      bill_state: 'NY',
      bill_postcode: '12207',
      bill_country: 'United States',
    });
    childOfA = await createId(t, '/api/v3/customer', { company: 'Acme Branch', parent_customer_id: customerA });
    customerB = await createId(t, '/api/v3/customer', { company: 'Beta Co', superuser_email: 'ap@beta.test' });
    contactA = await createId(t, '/api/v3/user', {
      customer_id: customerA,
      username: 'acme-portal',
      email: 'portal@acme.test',
    });
  });
  afterAll(async () => {
    await t.close();
    await inbox.stop();
  });

  describe('documents', () => {
    let quote: Json;

    beforeAll(async () => {
      quote = await newQuote({
        refnumber: 'Q-100',
        validuntil_date: '2026-03-31',
        line_items: [
          { item_id: c.plan, line_quantity: 2 }, // 198.00 + 6 % = 11.88
          { item_id: c.consulting, line_quantity: '2.5', descrip: 'Design workshop' }, // 375.00
          { item_id: c.consulting, descrip: 'Onboarding', tierset: { pricemodel: 'fla', base: 40, setup: 10 } },
        ],
      });
      expect(quote).toMatchObject({ subtotal: 613, taxes: 11.88, total: 624.88, setup: 10, upfront: 634.88 });
    });

    it('the permalink is an HTML quote with lines, taxes, totals, validity and status', async () => {
      const res = await t.http.get(pathOf(quote.url_permalink as string)).expect(200);
      expect(res.type).toBe('text/html');
      for (const text of [
        'Northwind Hosting LLC',
        'Quote #Q-100',
        'Acme Widgets',
        '48 State St',
        'Albany NY 12207',
        'Plan',
        '$ 198.00',
        'Design workshop',
        '$ 375.00',
        'Onboarding',
        '$ 40.00',
        'Taxes',
        '$ 11.88',
        'Then monthly',
        '$ 624.88',
        'Setup fees',
        'Due on acceptance',
        '$ 634.88',
        'Valid until: 2026-03-31',
        '>New<',
      ]) {
        expect(res.text).toContain(text);
      }
      expect(res.text).toContain(`href="${quote.url_acceptlink as string}"`);
      expect(res.text).toContain(`href="${quote.url_rejectlink as string}"`);
      expect(res.text).toContain(`href="${quote.url_pdflink as string}"`);
      expect(res.get('Content-Security-Policy')).toContain("default-src 'self'");
      expect(res.get('Cache-Control')).toBe('no-store');
    });

    it('the PDF link is a real PDF with the same figures', async () => {
      const text = await pdfText(await fetchPdf(t.http, pathOf(quote.url_pdflink as string), 'quote.pdf'));
      for (const expected of [
        'Northwind Hosting LLC',
        'QUOTE',
        '#Q-100',
        'Acme Widgets',
        'Albany NY 12207',
        'Valid until: 2026-03-31',
        'Status: New',
        'Plan',
        '$ 198.00',
        'Design workshop',
        '$ 375.00',
        'Onboarding',
        '$ 11.88',
        '$ 624.88',
        '$ 634.88',
        'open until 2026-03-31',
      ]) {
        expect(text).toContain(expected);
      }
    });

    it('bad and tampered tokens answer HTML 404 pages, never JSON', async () => {
      const token = quote.token as string;
      const tampered = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
      for (const path of [
        `/r/quote/view/${tampered}`,
        `/r/quote/pdf/${tampered}`,
        `/r/quote/accept/${tampered}`,
        `/r/quote/reject/${tampered}`,
        `/r/quote/view/${token.toUpperCase()}`,
        '/r/quote/accept/short',
        `/r/quote/view/${token}'--`,
      ]) {
        const res = await t.http.get(path).expect(404);
        expectPage(res, 'This quote link is not valid');
      }
      // A posted answer with a bad token (and a good CSRF token) is no answer either.
      const agent = browser();
      const page = await agent.get(pathOf(quote.url_acceptlink as string)).expect(200);
      const res = await agent
        .post(`/r/quote/accept/${tampered}`)
        .type('form')
        .send({ _csrf: csrfOf(page.text) })
        .expect(404);
      expectPage(res, 'This quote link is not valid');
      expect((await readQuote(quote.quote_id as number)).quote_status_str).toBe('open-new');
    });
  });

  describe('accept and reject links', () => {
    it('a GET shows the confirm form and changes nothing, however often it is opened', async () => {
      const quote = await newQuote({ refnumber: 'Q-GET' });
      for (const link of [quote.url_acceptlink, quote.url_rejectlink, quote.url_acceptlink] as string[]) {
        const res = await t.http.get(pathOf(link)).expect(200);
        expectPage(res, `method="post" action="${pathOf(link)}"`);
        expect(res.text).toContain('name="_csrf"');
      }
      // A quote is paid by accepting it: its pay link is the accept form.
      const pay = await t.http.get(pathOf(quote.url_paylink as string)).expect(200);
      expectPage(pay, `method="post" action="${pathOf(quote.url_acceptlink as string)}"`);
      const after = await readQuote(quote.quote_id as number);
      expect(after).toMatchObject({ quote_status_str: 'open-new', package_id: null, invoice_id: null });
      expect(await eventsOf(quote.quote_id as number)).toEqual(['insert']);
    });

    it('a forged post (no CSRF token, or another browser token) is refused and changes nothing', async () => {
      const quote = await newQuote({ refnumber: 'Q-CSRF' });
      const link = pathOf(quote.url_acceptlink as string);
      const bare = await t.http.post(link).type('form').send({}).expect(403);
      expectPage(bare, 'This form could not be accepted');
      const other = browser();
      const foreign = csrfOf((await other.get(link).expect(200)).text);
      const res = await t.http.post(link).type('form').send({ _csrf: foreign }).expect(403);
      expectPage(res, 'This form could not be accepted');
      expect((await readQuote(quote.quote_id as number)).quote_status_str).toBe('open-new');
    });

    it('accepting through the link does what the API convert does, then goes to url_acceptredirect', async () => {
      const viaLink = await newQuote({
        refnumber: 'Q-LINK',
        nickname: 'Hosted plan',
        url_acceptredirect: 'https://shop.example.com/thanks?order=7',
      });
      const viaApi = await newQuote({ refnumber: 'Q-API', nickname: 'Hosted plan' });
      const res = await confirm(viaLink.url_acceptlink as string, 303);
      expect(res.get('Location')).toBe('https://shop.example.com/thanks?order=7');
      await t.post(`/api/v3/quote/${viaApi.quote_id as number}?action=convert`).expect(200);

      const [linked, api] = [await readQuote(viaLink.quote_id as number), await readQuote(viaApi.quote_id as number)];
      expect(linked).toMatchObject({ quote_status_str: 'closed-won', quote_status_name: 'Accepted' });
      expect(linked.won_datetime).toBe(api.won_datetime);
      expect(await eventsOf(viaLink.quote_id as number)).toEqual(await eventsOf(viaApi.quote_id as number));
      expect(await eventsOf(viaLink.quote_id as number)).toEqual(['insert', 'status', 'won']);
      const subscription = (await t.get(`/api/v3/package/${linked.package_id as number}`).expect(200)).body
        .response as Json;
      expect(subscription).toMatchObject({ customer_id: customerA, nickname: 'Hosted plan' });
      expect((subscription.line_items as Json[]).map((l) => l.item_id)).toEqual([c.plan]);

      // The link again: this quote is accepted (200), and nothing is created twice.
      const again = await t.http.get(pathOf(viaLink.url_acceptlink as string)).expect(200);
      expectPage(again, 'Thank you: quote #Q-LINK is accepted.');
      expect(again.text).not.toContain('name="_csrf"');
      const packages = await t.get(`/api/v3/package?where=customer_id:EQUALS:${customerA}`).expect(200);
      expect((packages.body.response as Json[]).filter((p) => p.nickname === 'Hosted plan')).toHaveLength(2);
    });

    it('a one-time quote becomes an invoice; without a redirect the link shows its confirmation', async () => {
      const quote = await newQuote({ refnumber: 'Q-ONE', paycycle: 'one' });
      const agent = browser();
      const res = await confirm(quote.url_acceptlink as string, 303, agent);
      expect(res.get('Location')).toBe(pathOf(quote.url_acceptlink as string));
      const done = await agent.get(res.get('Location')!).expect(200);
      expectPage(done, 'Thank you: quote #Q-ONE is accepted.');
      const accepted = await readQuote(quote.quote_id as number);
      expect(accepted.quote_status_str).toBe('closed-won');
      const invoice = (await t.get(`/api/v3/invoice/${accepted.invoice_id as number}`).expect(200)).body
        .response as Json;
      expect(invoice).toMatchObject({ customer_id: customerA, total: 104.94 });
      expect(done.text).toContain(`href="${invoice.url_paylink as string}"`);
      // A second post (a double click, a resent form) answers where it stands and creates nothing.
      const open = await newQuote({ refnumber: 'Q-ONE-B' });
      const token = csrfOf((await agent.get(pathOf(open.url_acceptlink as string)).expect(200)).text);
      const twice = await agent
        .post(pathOf(quote.url_acceptlink as string))
        .type('form')
        .send({ _csrf: token })
        .expect(200);
      expectPage(twice, 'Thank you: quote #Q-ONE is accepted.');
      expect((await readQuote(quote.quote_id as number)).invoice_id).toBe(accepted.invoice_id);
      expect(await eventsOf(quote.quote_id as number)).toEqual(['insert', 'status', 'won']);
    });

    it('rejecting goes to url_rejectredirect; the quote is then gone for its accept link (410)', async () => {
      const quote = await newQuote({ refnumber: 'Q-NO', url_rejectredirect: 'http://shop.example.com/sorry' });
      const res = await confirm(quote.url_rejectlink as string, 303);
      expect(res.get('Location')).toBe('http://shop.example.com/sorry');
      const rejected = await readQuote(quote.quote_id as number);
      expect(rejected).toMatchObject({ quote_status_str: 'closed-lost', package_id: null, invoice_id: null });
      expect(await eventsOf(quote.quote_id as number)).toEqual(['insert', 'status', 'lost']);

      const accept = await t.http.get(pathOf(quote.url_acceptlink as string)).expect(410);
      expectPage(accept, 'Quote #Q-NO was rejected');
      expect(accept.text).not.toContain('name="_csrf"');
      const reject = await t.http.get(pathOf(quote.url_rejectlink as string)).expect(200);
      expectPage(reject, 'Thank you: quote #Q-NO is rejected.');
      const view = await t.http.get(pathOf(quote.url_permalink as string)).expect(200);
      expectPage(view, '>Rejected<');
      expect(view.text).not.toContain(`href="${quote.url_acceptlink as string}"`);
    });

    it('a quote accepted through the API shows as accepted; its reject link is gone (410)', async () => {
      const quote = await newQuote({ refnumber: 'Q-WON' });
      // The page is open in the customer's browser while the business accepts it.
      const agent = browser();
      const page = await agent.get(pathOf(quote.url_rejectlink as string)).expect(200);
      await t.post(`/api/v3/quote/${quote.quote_id as number}?action=convert`).expect(200);
      const late = await agent
        .post(pathOf(quote.url_rejectlink as string))
        .type('form')
        .send({ _csrf: csrfOf(page.text) })
        .expect(410);
      expectPage(late, 'Quote #Q-WON was accepted');
      expect((await readQuote(quote.quote_id as number)).quote_status_str).toBe('closed-won');
    });

    it('an expired quote cannot be answered by its links (410) and shows as expired', async () => {
      const quote = await newQuote({ refnumber: 'Q-OLD', date: '2026-02-01', validuntil_date: '2026-03-09' });
      for (const link of [quote.url_acceptlink, quote.url_rejectlink] as string[]) {
        const res = await t.http.get(pathOf(link)).expect(410);
        expectPage(res, 'Quote #Q-OLD has expired');
        expect(res.text).not.toContain('name="_csrf"');
      }
      // A form opened on its last day (America/Chicago), posted just after that midnight.
      t.clock.set(new Date('2026-03-11T04:40:00Z'));
      try {
        const valid = await newQuote({ refnumber: 'Q-LAST', validuntil_date: '2026-03-10' });
        const agent = browser();
        const page = await agent.get(pathOf(valid.url_acceptlink as string)).expect(200);
        t.clock.set(new Date('2026-03-11T05:20:00Z'));
        const res = await agent
          .post(pathOf(valid.url_acceptlink as string))
          .type('form')
          .send({ _csrf: csrfOf(page.text) })
          .expect(410);
        expectPage(res, 'Quote #Q-LAST has expired');
        expectPage(await t.http.get(pathOf(valid.url_permalink as string)).expect(200), '>Expired<');
        expect((await readQuote(valid.quote_id as number)).quote_status_str).toBe('open-new');
      } finally {
        t.clock.set(new Date('2026-03-10T17:00:00Z'));
      }
    });

    it("the API's query flags on a link do not silence webhooks", async () => {
      const quote = await newQuote({ refnumber: 'Q-FLAGS' });
      const link = pathOf(quote.url_acceptlink as string);
      const agent = browser();
      const page = await agent.get(link).expect(200);
      await agent
        .post(`${link}?_flag_webhooks=0&_flag_emails=0&on_behalf_addr=203.0.113.9`)
        .type('form')
        .send({ _csrf: csrfOf(page.text) })
        .expect(303);
      const rows = await t.dataSource.query<Json[]>(
        `SELECT event, suppress_webhooks FROM domain_event WHERE context_str = 'quote' AND context_id = '${quote.quote_id as number}' AND event = 'won'`,
      );
      expect(rows).toHaveLength(1);
      expect(Boolean(Number(rows[0].suppress_webhooks))).toBe(false);
    });

    it('a stored redirect that is not an http(s) URL is never followed', async () => {
      const quote = await newQuote({ refnumber: 'Q-JS' });
      await t.dataSource.query(
        `UPDATE quote SET url_acceptredirect = 'javascript:alert(1)' WHERE quote_id = ${quote.quote_id as number}`,
      );
      const res = await confirm(quote.url_acceptlink as string, 303);
      expect(res.get('Location')).toBe(pathOf(quote.url_acceptlink as string));
    });
  });

  describe('quote mail', () => {
    it('emails the quote template with working links (that change nothing), recorded in sent', async () => {
      const quote = await newQuote({ refnumber: 'Q-MAIL', validuntil_date: '2026-03-31' });
      await t.post(`/api/v3/quote/${quote.quote_id as number}?action=email`).expect(200);
      const mail = await inbox.next();
      expect(mail.recipients).toEqual(['ap@acme.test', 'portal@acme.test']);
      expect(mail.envelopeFrom).toBe('billing@northwind.test');
      expect(mail.subject).toBe('Quote #Q-MAIL from Northwind Hosting LLC');
      expect(mail.content).toContain('Hello Acme Widgets,');
      expect(mail.content).toContain('valid until 2026-03-31');
      // One monthly Plan line (99.00 + 6 % = 104.94), nothing one-time: all of it due on acceptance and monthly.
      expect(mail.content).toContain('Due on acceptance: $ 104.94. Then monthly: $ 104.94.');
      expect(mail.content).toContain('Content-Type: text/html');
      const links = linksIn(mail.content, BASE);
      for (const link of [quote.url_permalink, quote.url_pdflink, quote.url_acceptlink, quote.url_rejectlink]) {
        expect(links).toContain(pathOf(link as string));
      }
      // What a mail scanner does: open every link. Each answers, none answers the quote.
      for (const link of links) {
        const res = await t.http.get(link);
        expect([link, res.status]).toEqual([link, 200]);
      }
      const read = await readQuote(quote.quote_id as number);
      expect(read.quote_status_str).toBe('open-new');
      expect((read.sent as Json[]).map((s) => [s.method, s.email, s.subject])).toEqual([
        ['email', 'ap@acme.test, portal@acme.test', 'Quote #Q-MAIL from Northwind Hosting LLC'],
      ]);
    });

    it('takes the invoice email overrides (to, cc, bcc, subject, body, html, from)', async () => {
      const quote = await newQuote({ refnumber: 'Q-OVR' });
      await t
        .post(`/api/v3/quote/${quote.quote_id as number}?action=email`, {
          email: 'boss@acme.test',
          cc: 'cc@acme.test',
          bcc: 'audit@acme.test',
          subject: 'Our offer',
          body: `Plain text: ${quote.url_acceptlink as string}`,
          html: '<p>Rich text</p>',
          from: 'sales@northwind.test',
        })
        .expect(200);
      const mail = await inbox.next();
      expect(mail.recipients.sort()).toEqual(['audit@acme.test', 'boss@acme.test', 'cc@acme.test']);
      expect(mail.envelopeFrom).toBe('sales@northwind.test');
      expect(mail.subject).toBe('Our offer');
      expect(mail.content).toContain(`Plain text: ${quote.url_acceptlink as string}`);
      expect(mail.content).toContain('<p>Rich text</p>');
      expect(mail.content).not.toContain('bcc@');
      const sent = (await readQuote(quote.quote_id as number)).sent as Json[];
      expect(sent.map((s) => [s.email, s.subject])).toEqual([['boss@acme.test', 'Our offer']]);
    });

    it('_flag_emails=0 sends and records nothing; bad fields are a 400 naming the field', async () => {
      const quote = await newQuote({ refnumber: 'Q-QUIET' });
      const id = quote.quote_id as number;
      await t.post(`/api/v3/quote/${id}?action=email&_flag_emails=0`).expect(200);
      for (const [body, field] of [
        [{ email: 'nope' }, 'email'],
        [{ cc: 'a@b.test, nope' }, 'cc'],
        [{ subject: 7 }, 'subject'],
        [{ from: `${'x'.repeat(250)}@northwind.test` }, 'from'],
        [{ colour: 'red' }, 'colour'],
      ] as Array<[Json, string]>) {
        const res = await t.post(`/api/v3/quote/${id}?action=email`, body).expect(400);
        expect(res.body.message).toContain(`"${field}"`);
      }
      expect((await readQuote(id)).sent).toEqual([]);
    });
  });

  describe('portal quotes', () => {
    let own: Json;
    let child: Json;
    let other: Json;

    async function signedIn(): Promise<TestAgent> {
      const res = await t.post(`/api/v3/user/${contactA}?action=getLoginURL`, {}).expect(200);
      const agent = browser();
      await agent.get(pathOf(res.body.response as string)).expect(200);
      return agent;
    }

    beforeAll(async () => {
      own = await newQuote({ refnumber: 'A-Q1', paycycle: 'one' });
      child = await newQuote({ refnumber: 'A-CHILD-Q1', customer_id: childOfA });
      other = await newQuote({ refnumber: 'B-Q1', customer_id: customerB });
    });

    it('lists its own and its child customers quotes with their links, never another customer', async () => {
      const agent = await signedIn();
      const list = await agent.get('/portal/quotes').expect(200);
      expect(list.text).toContain('<h1>Quotes</h1>');
      expect(list.text).toContain('#A-Q1');
      expect(list.text).toContain('#A-CHILD-Q1');
      expect(list.text).toContain(`href="${own.url_acceptlink as string}"`);
      expect(list.text).toContain(`href="${child.url_rejectlink as string}"`);
      expect(list.text).not.toContain('#B-Q1');
      expect(list.text).not.toContain(other.token as string);
      const page = await agent.get(`/portal/quotes/${own.quote_id as number}`).expect(200);
      expectPage(page, 'Quote #A-Q1');
      expect(page.text).toContain(`href="${own.url_acceptlink as string}"`);
      // Home counts the open, unexpired quotes of the contact's customers (today is 2026-03-10).
      let awaiting = 0;
      for (const customer of [customerA, childOfA]) {
        const res = await t.get(`/api/v3/quote?where=customer_id:EQUALS:${customer}&limit=500`).expect(200);
        awaiting += (res.body.response as Json[]).filter(
          (q) => q.quote_status_str === 'open-new' && (q.validuntil_date ?? '9999') >= '2026-03-10',
        ).length;
      }
      expect(awaiting).toBeGreaterThan(2);
      const home = await agent.get('/portal/home').expect(200);
      expect(home.text).toContain(`<a href="/portal/quotes">Quotes</a> (${awaiting} awaiting your answer)`);
    });

    it('another customer quote by id is a 404 page, and nothing of it shows', async () => {
      const agent = await signedIn();
      for (const id of [other.quote_id as number, 999999, 'abc', '1 OR 1=1']) {
        const res = await agent.get(`/portal/quotes/${encodeURIComponent(String(id))}`).expect(404);
        expectPage(res, 'There is no such quote on your account.');
        expect(res.text).not.toContain('B-Q1');
      }
      await browser().get('/portal/quotes').expect(401);
    });

    it('a contact accepts its quote from the portal through the quote link', async () => {
      const agent = await signedIn();
      const list = await agent.get('/portal/quotes').expect(200);
      expect(list.text).toContain(`href="${own.url_acceptlink as string}"`);
      await confirm(own.url_acceptlink as string, 303, agent);
      const read = await readQuote(own.quote_id as number);
      expect(read.quote_status_str).toBe('closed-won');
      expect(read.invoice_id).not.toBeNull();
      const after = await agent.get('/portal/quotes').expect(200);
      expect(after.text).not.toContain(`href="${own.url_acceptlink as string}"`);
      expect(after.text).toContain('<td>Accepted</td>');
      const page = await agent.get(`/portal/quotes/${own.quote_id as number}`).expect(200);
      expectPage(page, 'Quote #A-Q1 was accepted.');
    });
  });
});
