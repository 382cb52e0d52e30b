import { createTestApp, TestApp } from './support/test-app';

describe('payment methods', () => {
  let t: TestApp;
  let customerId: number;
  let otherCustomerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-11-20T15:00:00Z'));
    customerId = (await t.post('/api/v3/customer', { company: 'Card Holder', external_key: 'holder' }).expect(201)).body
      .response.id;
    otherCustomerId = (await t.post('/api/v3/customer', { company: 'Other' }).expect(201)).body.response.id;
  });
  afterAll(async () => {
    await t.close();
  });

  const card = (extra: Record<string, unknown> = {}) => ({
    customer_id: customerId,
    number: '4242424242424242',
    expdate_year: 2028,
    expdate_month: 5,
    cvv: '123',
    name: 'Buffy Miller',
    ...extra,
  });

  it('stores a card masked, in the recorded shape, and lists it by customer', async () => {
    const res = await t.post('/api/v3/creditcard', card()).expect(201);
    const id = res.body.response.id as number;
    expect(res.headers.location).toBe(`https://billing.example.test/api/v3/creditcard/${id}`);
    const read = (await t.get(`/api/v3/creditcard/${id}`).expect(200)).body.response;
    expect(read).toMatchObject({
      creditcard_id: id,
      external_key: null,
      type: 'visa',
      token: expect.stringMatching(/^[a-z0-9]{12}$/),
      expdate: '2028-05-01',
      mask_number: 'xxxx-xxxx-xxxx-4242',
      name: 'Buffy Miller',
      expdate_month: '5',
      expdate_year: '2028',
      expdate_formatted: 'May 2028',
      type_name: 'Visa',
      customer_id: customerId,
    });
    expect(JSON.stringify(read)).not.toContain('4242424242424242');
    expect(Object.keys(read)).not.toContain('cvv');

    const list = (await t.get(`/api/v3/creditcard?where=customer_id:EQUALS:${customerId}`).expect(200)).body.response;
    expect(list.map((c: { creditcard_id: number }) => c.creditcard_id)).toEqual([id]);
    expect((await t.get(`/api/v3/creditcard?where=customer_id:EQUALS:${otherCustomerId}`)).body.response).toEqual([]);
    expect((await t.get(`/api/v3/creditcard/_count?where=customer_id:EQUALS:${customerId}`)).body.response).toBe(1);
  });

  it('updates the stored card when the same card is posted again', async () => {
    const first = (await t.post('/api/v3/creditcard', card({ number: '5555555555554444', name: 'A' })).expect(201)).body
      .response.id;
    const again = (await t.post('/api/v3/creditcard', card({ number: '5555 5555 5555 4444', name: 'B' })).expect(201))
      .body.response.id;
    expect(again).toBe(first);
    const read = (await t.get(`/api/v3/creditcard/${first}`)).body.response;
    expect(read).toMatchObject({ name: 'B', type: 'mast', type_name: 'MasterCard' });
    // A different expiry is another card.
    const other = (
      await t.post('/api/v3/creditcard', card({ number: '5555555555554444', expdate_year: 2029 })).expect(201)
    ).body.response.id;
    expect(other).not.toBe(first);
  });

  it.each([
    [{ number: '4242424242424241' }, 'Field "number" is not a valid card number.'],
    [{ number: '9999999999999995' }, 'Field "number": the card brand is not accepted'],
    [{ expdate_month: 13 }, 'Field "expdate_month" must be from 1 to 12.'],
    [{ expdate_year: 2025, expdate_month: 10 }, 'Field "expdate_year": the card has expired.'],
    [{ cvv: '12' }, 'Field "cvv" must be 3 digits.'],
    [{ customer_id: 999999 }, 'Field "customer_id": no customer with id 999999 exists.'],
    [{ mask_number: 'x' }, '"mask_number" is read-only'],
  ])('refuses %p with a 400 that never repeats the number', async (extra, message) => {
    const before = (await t.get('/api/v3/creditcard/_count')).body.response as number;
    const res = await t.post('/api/v3/creditcard', card(extra)).expect(400);
    expect(res.body.message).toContain(message);
    expect(res.body.message).not.toMatch(/\d{12,}/);
    expect((await t.get('/api/v3/creditcard/_count')).body.response).toBe(before);
  });

  it('accepts expdate as YYYY-MM and a customer external key', async () => {
    const body = { customer_external_key: 'holder', number: '378282246310005', expdate: '2030-01', cvv: '1234' };
    const id = (await t.post('/api/v3/creditcard', body).expect(201)).body.response.id;
    const read = (await t.get(`/api/v3/creditcard/${id}`)).body.response;
    expect(read).toMatchObject({ type: 'amex', mask_number: 'xxxx-xxxx-xxxx-0005', expdate: '2030-01-01' });
  });

  it('deletes a card (and clears it as the default)', async () => {
    const id = (await t.post('/api/v3/creditcard', card({ number: '6011111111111117' })).expect(201)).body.response.id;
    await t
      .post(`/api/v3/customer/${customerId}?action=setPayMethod`, { paymethod: 'crd', creditcard_id: id })
      .expect(200);
    expect((await t.get(`/api/v3/customer/${customerId}`)).body.response).toMatchObject({
      default_paymethod: 'crd',
      default_creditcard_id: id,
    });
    expect((await t.del(`/api/v3/creditcard/${id}`).expect(200)).body.response).toBe(true);
    await t.get(`/api/v3/creditcard/${id}`).expect(404);
    expect((await t.get(`/api/v3/customer/${customerId}`)).body.response).toMatchObject({
      default_paymethod: null,
      default_creditcard_id: null,
    });
  });

  it('stores bank accounts masked after the ABA check', async () => {
    const body = { customer_id: customerId, type: 'chec', number: '000123456789', routing: '110000000', name: 'Chk' };
    const id = (await t.post('/api/v3/ach', body).expect(201)).body.response.id;
    const read = (await t.get(`/api/v3/ach/${id}`).expect(200)).body.response;
    expect(read).toMatchObject({
      ach_id: id,
      type: 'chec',
      type_name: 'Checking',
      mask_number: 'xxxxxxxx6789',
      routing: '110000000',
      customer_id: customerId,
    });
    expect(JSON.stringify(read)).not.toContain('000123456789');
    const bad = await t.post('/api/v3/ach', { ...body, routing: '110000001' }).expect(400);
    expect(bad.body.message).toBe('Field "routing" is not a valid ABA routing number.');
    await t.post('/api/v3/ach', { ...body, type: 'other' }).expect(400);
    await t.post(`/api/v3/customer/${customerId}/_action/setPayMethod`, { paymethod: 'ach', ach_id: id }).expect(200);
    expect((await t.get(`/api/v3/customer/${customerId}`)).body.response).toMatchObject({
      default_paymethod: 'ach',
      default_ach_id: id,
      default_creditcard_id: null,
    });
    expect((await t.get(`/api/v3/ach?where=customer_id:EQUALS:${customerId}`)).body.response).toHaveLength(1);
    await t.del(`/api/v3/ach/${id}`).expect(200);
    expect((await t.get(`/api/v3/ach?where=customer_id:EQUALS:${customerId}`)).body.response).toHaveLength(0);
  });

  it('stores tokenized methods as recorded', async () => {
    const id = (
      await t
        .post('/api/v3/tokenized', { customer_id: customerId, type: 'customer', token: 'cus_1CoGUjtUMyLIDR' })
        .expect(201)
    ).body.response.id;
    expect((await t.get(`/api/v3/tokenized/${id}`).expect(200)).body.response).toMatchObject({
      tokenized_id: id,
      type: 'customer',
      token: 'cus_1CoGUjtUMyLIDR',
      customer_id: customerId,
    });
    const list = (await t.get(`/api/v3/tokenized?where=customer_id:EQUALS:${customerId}`)).body.response;
    expect(list).toHaveLength(1);
    await t.get('/api/v3/tokenized/token:abc').expect(404);
    await t.post('/api/v3/tokenized', { customer_id: customerId }).expect(400);
    await t.del(`/api/v3/tokenized/${id}`).expect(200);
    await t.get(`/api/v3/tokenized/${id}`).expect(404);
  });

  it('setPayMethod refuses a method of another customer and a missing id', async () => {
    const otherCard = (
      await t.post('/api/v3/creditcard', card({ customer_id: otherCustomerId, number: '4111111111111111' })).expect(201)
    ).body.response.id;
    const res = await t
      .post(`/api/v3/customer/${customerId}?action=setPayMethod`, { paymethod: 'crd', creditcard_id: otherCard })
      .expect(400);
    expect(res.body.message).toBe(
      `Field "creditcard_id": customer ${customerId} has no credit card with id ${otherCard}.`,
    );
    const missing = await t
      .post(`/api/v3/customer/${customerId}?action=setPayMethod`, { paymethod: 'crd' })
      .expect(400);
    expect(missing.body.message).toContain('"creditcard_id"');
    await t.post(`/api/v3/customer/${customerId}?action=setPayMethod`, { paymethod: 'inv' }).expect(200);
    expect((await t.get(`/api/v3/customer/${customerId}`)).body.response.default_paymethod).toBe('inv');
    await t.post('/api/v3/customer/999999?action=setPayMethod', { paymethod: 'inv' }).expect(404);
  });
});
