import { createTestApp, TestApp } from './support/test-app';

/** Bank account and routing numbers are read as typed, with spaces and dashes, as card numbers are. */
describe('bank account number formats', () => {
  let t: TestApp;
  let customerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
    customerId = (await t.post('/api/v3/customer', { company: 'Dashes' }).expect(201)).body.response.id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores an account sent with spaces and dashes as its digits', async () => {
    const body = {
      customer_id: customerId,
      type: 'chec',
      number: '0001 2345-6789',
      routing: '110-000 000',
      name: 'Chk',
    };
    const id = (await t.post('/api/v3/ach', body).expect(201)).body.response.id;
    const read = (await t.get(`/api/v3/ach/${id}`).expect(200)).body.response;
    expect(read).toMatchObject({ mask_number: 'xxxxxxxx6789', routing: '110000000' });
    // The same account typed without separators is the same stored account.
    const again = { ...body, number: '000123456789', routing: '110000000' };
    expect((await t.post('/api/v3/ach', again).expect(201)).body.response.id).toBe(id);
  });

  it('still refuses what is not digits once separators are gone, naming the field', async () => {
    const body = { customer_id: customerId, type: 'chec', number: '0001 2345 6789', routing: '110-000-000', name: 'x' };
    const letters = await t.post('/api/v3/ach', { ...body, number: '0001-2345-67AB' }).expect(400);
    expect(letters.body.message).toBe('Field "number" must be a bank account number of 4 to 17 digits.');
    const routing = await t.post('/api/v3/ach', { ...body, routing: '110-000-001' }).expect(400);
    expect(routing.body.message).toBe('Field "routing" is not a valid ABA routing number.');
  });

  it('pays with a new bank account sent with separators', async () => {
    const res = await t
      .post('/api/v3/transaction?action=pay', {
        customer_id: customerId,
        amount: 12.5,
        paymethods: [{ type: 'savi', number: '0009-8765-4321', routing: '110 000 000', name: 'Savings' }],
      })
      .expect(200);
    expect(res.body.details.gateway_status).toBe(1);
    const ach = (await t.get(`/api/v3/ach/${res.body.details.ach_id}`).expect(200)).body.response;
    expect(ach).toMatchObject({ mask_number: 'xxxxxxxx4321', routing: '110000000', type: 'savi' });
  });
});
