import { connect } from 'node:net';
import { AUTH, createTestApp, TestApp } from './support/test-app';

/** Sends raw bytes on one connection and resolves with the whole answer as text. */
function rawRequest(port: number, bytes: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

/** JSON text of `levels` arrays inside one another (too deep for JSON.stringify itself). */
function nested(levels: number): string {
  return `${'['.repeat(levels)}1${']'.repeat(levels)}`;
}

describe('input limits (every refusal is an envelope, never a 500)', () => {
  let t: TestApp;
  let port: number;
  let customer: number;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer() as { address(): { port: number } }).address().port;
    customer = (await t.post('/api/v3/customer', { company: 'Limits', superuser_email: 'l@example.com' }).expect(201))
      .body.response.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const error = (code: number, message: string | RegExp) => ({
    code,
    status: 'Error',
    message: typeof message === 'string' ? message : expect.stringMatching(message),
    details: {},
    response: false,
  });

  it.each([
    ['/api/v3/customer', (deep: string) => `{"company":"x","tags":${deep}}`],
    ['/api/v3/customer', (deep: string) => `{"company":"x","custom_1":${deep}}`],
    ['/api/v3/item', (deep: string) => `{"name":"x","tiersets":${deep}}`],
    ['/api/v3/transaction', (deep: string) => `{"customer_id":1,"applied_to":${deep}}`],
    ['/api/v3/_bulk', (deep: string) => `[{"method":"POST","uri":"/api/v3/customer","payload":${deep}}]`],
  ])('refuses JSON nested 10,000 levels deep on %s with a 400', async (path, body) => {
    const res = await t.http
      .post(path)
      .set('Authorization', AUTH)
      .set('Content-Type', 'application/json')
      .send(body(nested(10_000)))
      .expect(400);
    expect(res.body).toEqual(error(400, /nested deeper than 32 levels\.$/));
  });

  it('refuses an over-long string or array, naming it', async () => {
    const res = await t.post('/api/v3/customer', { company: 'x', tags: new Array(1001).fill('a') }).expect(400);
    expect(res.body).toEqual(error(400, 'Invalid field "tags": at most 1000 items.'));
    const long = await t.post('/api/v3/customer', { company: 'x'.repeat(70_000) }).expect(400);
    expect(long.body).toEqual(error(400, 'Invalid field "company": at most 65535 characters.'));
  });

  it('answers an oversized URL or header with a 431 envelope', async () => {
    const url = await rawRequest(port, `GET /api/v3/customer?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(url).toMatch(/^HTTP\/1\.1 431 /);
    expect(url).toContain('Content-Type: application/json; charset=utf-8');
    expect(bodyOf(url)).toEqual(error(431, 'Invalid request: the URL or the request headers are too large.'));
    const header = await rawRequest(
      port,
      `GET /api/v3/customer HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(bodyOf(header)).toEqual(error(431, 'Invalid request: the URL or the request headers are too large.'));
    const garbage = await rawRequest(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(bodyOf(garbage)).toEqual(error(400, 'Invalid request: the HTTP request is malformed.'));
  });

  it('refuses a body that is not valid UTF-8 instead of replacing the bytes', async () => {
    const body = Buffer.concat([Buffer.from('{"company":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const head =
      `POST /api/v3/customer HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const answer = await rawRequest(port, Buffer.concat([Buffer.from(head), body]));
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toEqual(error(400, 'Invalid request: the request body is not valid UTF-8.'));
    expect((await t.get('/api/v3/customer/_count').expect(200)).body.response).toBe(1);
  });

  it('refuses dates outside the years 1900 to 2999, offsets included', async () => {
    const invoice = await t
      .post('/api/v3/invoice', { customer_id: customer, date: '9999-12-31', line_items: [{ item_id: 1 }] })
      .expect(400);
    expect(invoice.body).toEqual(error(400, /date must be a date in the years 1900 to 2999/));
    const payment = { customer_id: customer, transaction_type: 'pay', gateway_method: 'check', amount: '1.00' };
    for (const [field, value] of [
      ['transaction_date', '0001-01-01'],
      ['transaction_datetime', '9999-12-31T23:59:59+14:00'],
      ['transaction_datetime', '2999-12-31T23:00:00-12:00'],
    ]) {
      const res = await t.post('/api/v3/transaction', { ...payment, [field]: value }).expect(400);
      expect(res.body.message).toContain(field);
    }
    expect((await t.get('/api/v3/transaction/_count').expect(200)).body.response).toBe(0);
  });

  it('refuses an amount above 999999999999.99', async () => {
    const payment = { customer_id: customer, transaction_type: 'pay', gateway_method: 'check' };
    const res = await t.post('/api/v3/transaction', { ...payment, amount: '1000000000000.00' }).expect(400);
    expect(res.body.message).toBe('Invalid field "amount": must not be more than 999999999999.99.');
  });

  it('refuses setPayMethod with a null id', async () => {
    for (const field of ['creditcard_id', 'ach_id', 'tokenized_id']) {
      const res = await t.post(`/api/v3/customer/${customer}?action=setPayMethod`, { [field]: null }).expect(400);
      expect(res.body.message).toContain(field);
    }
  });

  it('refuses a null e-mail and line breaks in addresses and subjects on the transaction email action', async () => {
    const payment = { customer_id: customer, transaction_type: 'pay', gateway_method: 'check', amount: '5.00' };
    const id = (await t.post('/api/v3/transaction', payment).expect(201)).body.response.id as number;
    for (const [body, field] of [
      [{ email: null }, 'email'],
      [{ email: 'a@example.com\r\nBcc: evil@example.com' }, 'email'],
      [{ cc: 'a@example.com\nb@example.com' }, 'cc'],
      [{ subject: 'Hi\r\nBcc: evil@example.com' }, 'subject'],
      [{ from: 'x@example.com\nBcc: y@example.com' }, 'from'],
    ] as const) {
      const res = await t.post(`/api/v3/transaction/${id}?action=email`, body).expect(400);
      expect(res.body.message).toContain(`"${field}"`);
    }
    await t.post(`/api/v3/transaction/${id}?action=email`, { email: 'a@example.com, b@example.com' }).expect(200);
  });
});
