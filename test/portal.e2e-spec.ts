import TestAgent from 'supertest/lib/agent';
import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import * as make from './support/factories';
import { browserOf, csrfOf, pathOf } from './support/hosted-pages';
import { createTestApp, TestApp } from './support/test-app';
import { Json } from './support/json';

const CARD = { number: '4242424242424242', expdate_month: '12', expdate_year: '2030', cvv: '123' };
const DECLINED = { ...CARD, number: '4000000000000002' };

describe('customer portal and pay links', () => {
  let t: TestApp;
  let c: Catalog;
  let customerA: number;
  let customerB: number;
  let childOfA: number;
  let contactA: number;
  let invoiceA: Json;
  let invoiceB: Json;
  let invoiceChild: Json;

  const browser = (): TestAgent => browserOf(t);

  async function readInvoice(id: number): Promise<Json> {
    return (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response as Json;
  }

  async function newInvoice(customer: number, refnumber: string): Promise<Json> {
    return readInvoice(await make.newInvoiceOf(t, customer, [{ item_id: c.plan }], { refnumber }));
  }

  async function loginPath(userId: number, destination?: string): Promise<string> {
    const res = await t
      .post(`/api/v3/user/${userId}?action=getLoginURL`, destination ? { destination } : {})
      .expect(200);
    return pathOf(res.body.response as string);
  }

  async function signedIn(): Promise<TestAgent> {
    const agent = browser();
    await agent.get(await loginPath(contactA)).expect(200);
    return agent;
  }

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'http://portal.test', BUSINESS_NAME: 'Northwind Hosting LLC' });
    t.clock.set(new Date('2026-03-10T17:00:00Z'));
    c = await createCatalog(t);
    customerA = await createId(t, '/api/v3/customer', { company: 'Alpha Co' });
    customerB = await createId(t, '/api/v3/customer', { company: 'Beta Co' });
    childOfA = await createId(t, '/api/v3/customer', { company: 'Alpha Branch', parent_customer_id: customerA });
    contactA = await createId(t, '/api/v3/user', {
      customer_id: customerA,
      username: 'alpha-ap',
      email: 'ap@alpha.test',
      first_name: 'Ann',
    });
    await createId(t, '/api/v3/user', { customer_id: customerB, username: 'beta-ap', email: 'ap@beta.test' });
    invoiceA = await newInvoice(customerA, 'A-1');
    invoiceB = await newInvoice(customerB, 'B-1');
    invoiceChild = await newInvoice(childOfA, 'A-CHILD-1');
  });
  afterAll(async () => {
    await t.close();
  });

  describe('signing in', () => {
    it('a login URL signs in once (signed HttpOnly SameSite cookie), a second use is refused', async () => {
      const agent = browser();
      const path = await loginPath(contactA);
      const first = await agent.get(path).expect(200);
      expect(first.text).toContain('Welcome, Alpha Co');
      const cookies = first.get('Set-Cookie') ?? [];
      const session = cookies.find((k) => k.startsWith('portal_session='));
      expect(session).toMatch(/^portal_session=s%3A.+; Max-Age=3600; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);
      expect(first.get('Content-Security-Policy')).toContain("form-action 'self'");
      const again = await browser().get(path).expect(410);
      expect(again.type).toBe('text/html');
      expect(again.text).toContain('expired or was already used');
      // The session outlives the link.
      await agent.get('/portal/home').expect(200);
    });

    it('without a session the pages answer 401; a tampered session cookie is refused', async () => {
      const anonymous = await browser().get('/portal/invoices').expect(401);
      expect(anonymous.text).toContain('Please sign in first');

      const first = await browser()
        .get(await loginPath(contactA))
        .expect(200);
      const cookie = (first.get('Set-Cookie') ?? []).find((k) => k.startsWith('portal_session='))!.split(';')[0];
      const value = decodeURIComponent(cookie.slice('portal_session='.length));
      const forged = value.replace(`"customerId":${customerA}`, `"customerId":${customerB}`);
      expect(forged).not.toBe(value);
      const res = await t.http
        .get('/portal/invoices')
        .set('Cookie', `portal_session=${encodeURIComponent(forged)}`)
        .expect(401);
      expect(res.text).toContain('could not be verified');
      expect(res.text).not.toContain('B-1');
    });

    it('the session expires after an hour (Clock time)', async () => {
      const agent = await signedIn();
      t.clock.advance(61 * 60_000);
      try {
        await agent.get('/portal/home').expect(401);
      } finally {
        t.clock.set(new Date('2026-03-10T17:00:00Z'));
      }
    });

    it('a contact sets its password in the portal and signs in with it', async () => {
      const agent = await signedIn();
      const page = await agent.get('/portal/password').expect(200);
      const short = await agent
        .post('/portal/password')
        .type('form')
        .send({ _csrf: csrfOf(page.text), password: 'short', confirm: 'short' })
        .expect(400);
      expect(short.text).toContain('at least 8 characters');
      const saved = await agent
        .post('/portal/password')
        .type('form')
        .send({ _csrf: csrfOf(short.text), password: 'correct horse', confirm: 'correct horse' })
        .expect(200);
      expect(saved.text).toContain('Your password was changed');

      const other = browser();
      const form = await other.get('/portal').expect(200);
      const wrong = await other
        .post('/portal/sign-in')
        .type('form')
        .send({ _csrf: csrfOf(form.text), username: 'alpha-ap', password: 'wrong horse' })
        .expect(401);
      await other
        .post('/portal/sign-in')
        .type('form')
        .send({ _csrf: csrfOf(wrong.text), username: 'ALPHA-AP', password: 'correct horse' })
        .expect(303)
        .expect('Location', '/portal/home');
      expect((await other.get('/portal/home').expect(200)).text).toContain('Welcome, Alpha Co');
    });
  });

  describe('what a contact sees', () => {
    it('lists its own and its child customers invoices, never another customer', async () => {
      const agent = await signedIn();
      const list = await agent.get('/portal/invoices').expect(200);
      expect(list.text).toContain('#A-1');
      expect(list.text).toContain('#A-CHILD-1');
      expect(list.text).not.toContain('#B-1');
      const own = await agent.get(`/portal/invoices/${invoiceA.invoice_id as number}`).expect(200);
      expect(own.text).toContain('Invoice #A-1');
      await agent.get(`/portal/invoices/${invoiceChild.invoice_id as number}`).expect(200);
      for (const id of [invoiceB.invoice_id as number, 999999, 'abc']) {
        const res = await agent.get(`/portal/invoices/${id}`).expect(404);
        expect(res.text).toContain('no such invoice');
        expect(res.text).not.toContain('B-1');
      }
    });

    it('lists its own and its child customers subscriptions, never another customer', async () => {
      await createId(t, '/api/v3/package', {
        customer_id: customerA,
        nickname: 'Alpha hosting',
        line_items: [{ item_id: c.plan }],
      });
      await createId(t, '/api/v3/package', {
        customer_id: childOfA,
        nickname: 'Branch hosting',
        line_items: [{ item_id: c.plan }],
      });
      await createId(t, '/api/v3/package', {
        customer_id: customerB,
        nickname: 'Beta hosting',
        line_items: [{ item_id: c.plan }],
      });
      const agent = browser();
      const page = await agent.get(await loginPath(contactA, 'subscriptions')).expect(200);
      expect(page.text).toContain('<h1>Subscriptions</h1>');
      expect(page.text).toContain('Alpha hosting');
      expect(page.text).toContain('Branch hosting');
      expect(page.text).not.toContain('Beta hosting');
      expect((await agent.get('/portal/subscriptions').expect(200)).text).toContain('Monthly');
    });

    it('shows payments, account information and the payment-method page', async () => {
      const agent = await signedIn();
      expect((await agent.get('/portal/payments').expect(200)).text).toContain('Payments');
      const info = await agent.get('/portal/info').expect(200);
      expect(info.text).toContain('Alpha Co');
      expect(info.text).toContain('alpha-ap');
      expect((await agent.get('/portal/paymethods').expect(200)).text).toContain('no payment method');
    });
  });

  describe('forms are CSRF-protected', () => {
    it('a forged post without (or with a wrong) token is refused and changes nothing', async () => {
      const agent = await signedIn();
      for (const body of [CARD, { ...CARD, _csrf: 'forged' }]) {
        const res = await agent
          .post('/portal/paymethods')
          .type('form')
          .send({ method: 'card', ...body })
          .expect(403);
        expect(res.type).toBe('text/html');
      }
      const payPath = pathOf(invoiceA.url_paylink as string);
      await browser()
        .post(payPath)
        .type('form')
        .send({ method: 'card', ...CARD })
        .expect(403);
      expect((await readInvoice(invoiceA.invoice_id as number)).balance).toBe(invoiceA.balance);
      const customer = (await t.get(`/api/v3/customer/${customerA}`).expect(200)).body.response as Json;
      expect(customer.default_creditcard_id).toBeNull();
    });

    it('a token from one browser does not work in another', async () => {
      const one = await signedIn();
      const two = await signedIn();
      const page = await one.get('/portal/paymethods').expect(200);
      await two
        .post('/portal/paymethods')
        .type('form')
        .send({ method: 'card', ...CARD, _csrf: csrfOf(page.text) })
        .expect(403);
    });
  });

  describe('payment methods', () => {
    it('adds a card on file in the portal (only the mask is kept) and replaces it through url_paymethodlink', async () => {
      const agent = await signedIn();
      const page = await agent.get('/portal/paymethods').expect(200);
      const saved = await agent
        .post('/portal/paymethods')
        .type('form')
        .send({ method: 'card', ...CARD, number: '4242 4242 4242 4242', _csrf: csrfOf(page.text) })
        .expect(200);
      expect(saved.text).toContain('xxxx-xxxx-xxxx-4242');
      let customer = (await t.get(`/api/v3/customer/${customerA}`).expect(200)).body.response as Json;
      expect(customer.default_paymethod).toBe('crd');
      const firstCard = customer.default_creditcard_id as number;
      expect(firstCard).toEqual(expect.any(Number));
      const rows = await t.dataSource.query<Array<Record<string, unknown>>>('SELECT * FROM creditcard');
      expect(JSON.stringify(rows)).not.toContain('4242424242424242');

      const link = browser();
      const linkPath = pathOf(customer.url_paymethodlink as string);
      const form = await link.get(linkPath).expect(200);
      expect(form.text).toContain('xxxx-xxxx-xxxx-4242');
      const bad = await link
        .post(linkPath)
        .type('form')
        .send({ method: 'card', ...CARD, number: '4242424242424241', _csrf: csrfOf(form.text) })
        .expect(400);
      expect(bad.text).toContain('number');
      const replaced = await link
        .post(linkPath)
        .type('form')
        .send({ method: 'card', ...CARD, number: '5555555555554444', _csrf: csrfOf(bad.text) })
        .expect(200);
      expect(replaced.text).toContain('xxxx-xxxx-xxxx-4444');
      customer = (await t.get(`/api/v3/customer/${customerA}`).expect(200)).body.response as Json;
      expect(customer.default_creditcard_id).not.toBe(firstCard);
    });
  });

  describe('url_paylink', () => {
    it('a declined card shows the gateway message and leaves the invoice as it was', async () => {
      const agent = browser();
      const path = pathOf(invoiceB.url_paylink as string);
      const page = await agent.get(path).expect(200);
      expect(page.text).toContain('Pay invoice #B-1');
      // True for the test gateway: the number comes to this site, which hands it to the gateway.
      expect(page.text).toContain('The card or account number you enter here is sent to this site, which passes it');
      expect(page.text).not.toContain('Stripe');
      const res = await agent
        .post(path)
        .type('form')
        .send({ method: 'card', ...DECLINED, _csrf: csrfOf(page.text) })
        .expect(400);
      expect(res.text).toContain('Your card was declined.');
      const after = await readInvoice(invoiceB.invoice_id as number);
      expect(after).toMatchObject({ balance: invoiceB.balance, is_paid: false, declines: 1 });
    });

    it('pays the whole invoice by card, as the API pay action does', async () => {
      const agent = browser();
      const path = pathOf(invoiceB.url_paylink as string);
      const page = await agent.get(path).expect(200);
      await agent
        .post(path)
        .type('form')
        .send({ method: 'card', ...CARD, _csrf: csrfOf(page.text) })
        .expect(303)
        .expect('Location', `${path}?paid=1`);
      const done = await agent.get(`${path}?paid=1`).expect(200);
      expect(done.text).toContain('Thank you: your payment was received');
      expect(await readInvoice(invoiceB.invoice_id as number)).toMatchObject({ balance: 0, is_paid: true });
      const payments = (await t.get(`/api/v3/transaction?where=customer_id:EQUALS:${customerB}`).expect(200)).body
        .response as Json[];
      expect(payments.map((p) => p.transaction_status_str)).toEqual(['fail-declined', 'ok-successful']);
      // Paid: the link now says so and takes no more money.
      const again = await agent.get(path).expect(200);
      expect(again.text).toContain('Nothing is due');
      await agent
        .post(path)
        .type('form')
        .send({ method: 'card', ...CARD, _csrf: csrfOf(page.text) })
        .expect(409);
    });

    it('pays one schedule entry from a bank account through its own link', async () => {
      const id = await createId(t, '/api/v3/invoice', {
        customer_id: customerA,
        refnumber: 'A-2',
        line_items: [{ item_id: c.consulting, line_quantity: 2 }],
      });
      const invoice = await readInvoice(id);
      const entries = invoice.schedule as Json[];
      expect(entries).toHaveLength(1);
      const agent = browser();
      const path = pathOf(entries[0].url_paylink as string);
      const page = await agent.get(path).expect(200);
      expect(page.text).toContain('$ 300.00');
      await agent
        .post(path)
        .type('form')
        .send({
          method: 'ach',
          name: 'Alpha Co',
          routing: '110000000',
          number: '000123456789',
          type: 'chec',
          _csrf: csrfOf(page.text),
        })
        .expect(303);
      // A bank payment is pending at once, and pending money counts (DESIGN §6 "Test gateway").
      const after = await readInvoice(id);
      expect(after.balance).toBe(0);
      expect((after.schedule as Json[])[0].balance).toBe(0);
      const payments = (await t.get(`/api/v3/transaction?where=applied_to.invoice_id:EQUALS:${id}`).expect(200)).body
        .response as Json[];
      expect(payments.map((p) => [p.transaction_status_str, p.amount, p.ach_id !== null])).toEqual([
        ['ok-pending', 300, true],
      ]);
    });
  });
});
