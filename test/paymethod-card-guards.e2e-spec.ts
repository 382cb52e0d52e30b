import { createTestApp, TestApp } from './support/test-app';

/** Card data guards: a vault token is stored and read back as sent, so it must never be a card number. */
describe('payment method card guards', () => {
  let t: TestApp;
  let customer: number;

  beforeAll(async () => {
    t = await createTestApp();
    customer = (await t.post('/api/v3/customer', { company: 'Vault', superuser_email: 'v@vault.test' }).expect(201))
      .body.response.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['4242424242424242', '4242 4242 4242 4242', '378282246310005'])('token %s is a 400', async (token) => {
    const res = await t.post('/api/v3/tokenized', { customer_id: customer, token, paymethod_hint: 'crd' }).expect(400);
    expect(res.body.message).toBe('Field "token" looks like a card number: send cards to /creditcard.');
    expect(JSON.stringify(res.body)).not.toContain('4242424242424242');
    const [{ n }] = await t.dataSource.query<Array<{ n: unknown }>>('SELECT COUNT(*) AS n FROM tokenized');
    expect(Number(n)).toBe(0);
  });

  it('a vault token, even an all-digit one failing Luhn, is stored', async () => {
    await t.post('/api/v3/tokenized', { customer_id: customer, token: 'cus_1CoGUjtUMyLIDR' }).expect(201);
    await t.post('/api/v3/tokenized', { customer_id: customer, token: '4242424242424241' }).expect(201);
  });
  it.each([null, ['4242424242424242'], { n: 1 }])(
    'a card number sent as %j is named as the wrong type',
    async (number) => {
      const body = { customer_id: customer, number, expdate_year: 2030, expdate_month: 1 };
      const res = await t.post('/api/v3/creditcard', body).expect(400);
      expect(res.body.message).toBe('Invalid field "number": number must be a string of digits.');
    },
  );
  it.each([
    ['number', 'number must be a string of digits'],
    ['routing', 'routing must be a string of 9 digits'],
  ])('a bank account %s sent as null is named as the wrong type', async (field, message) => {
    const body = { customer_id: customer, type: 'chec', number: '000123456789', routing: '110000000', [field]: null };
    const res = await t.post('/api/v3/ach', body).expect(400);
    expect(res.body.message).toBe(`Invalid field "${field}": ${message}.`);
  });
});
