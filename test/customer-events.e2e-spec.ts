import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { CustomersService } from 'src/customers/customers.service';
import { CreateCustomerDto } from 'src/customers/dto/create-customer.dto';
import * as insertRowModule from 'src/database/insert-row';
import { fastPath } from 'src/database/fast-paths';
import { createTestApp, TestApp } from './support/test-app';

describe('customer events in the outbox', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function eventsFor(contextStr: string, contextId: number): Promise<DomainEvent[]> {
    return t.dataSource.getRepository(DomainEvent).find({
      where: { context_str: contextStr, context_id: String(contextId) },
      order: { domain_event_id: 'ASC' },
    });
  }

  it('records customer insert with the customer and its main contact, and user insert', async () => {
    const id = (
      await t
        .post('/api/v3/customer', { company: 'Evented', superuser_email: 'a@example.com', superuser_first_name: 'Ann' })
        .expect(201)
    ).body.response.id as number;
    const [insert] = await eventsFor('customer', id);
    expect(insert.event).toBe('insert');
    expect(Object.keys(insert.data).sort()).toEqual(['customer', 'user']);
    expect(insert.data.customer).toMatchObject({
      customer_id: id,
      company: 'Evented',
      superuser_email: 'a@example.com',
    });
    expect(insert.data.user).toMatchObject({ email: 'a@example.com', first_name: 'Ann', customer_id: id });
    expect(insert.suppress_webhooks).toBe(false);
    const userId = (insert.data.customer as { superuser_id: number }).superuser_id;
    const userEvents = await eventsFor('user', userId);
    expect(userEvents.map((e) => e.event)).toEqual(['insert']);
    expect(Object.keys(userEvents[0].data).sort()).toEqual(['the_users_password', 'user']);
  });

  /** Creates through the service, all in one turn (as concurrent POSTs arrive), settled in order. */
  async function createInOneTurn(bodies: Array<Record<string, unknown>>): Promise<Array<PromiseSettledResult<number>>> {
    const customers = t.app.get(CustomersService);
    return Promise.allSettled(bodies.map((body) => customers.create(SYSTEM_CONTEXT, body as CreateCustomerDto)));
  }

  async function createdOnce(id: number, company: string): Promise<void> {
    expect((await t.get(`/api/v3/customer/${id}`).expect(200)).body.response.company).toBe(company);
    const revisions = (await t.get(`/api/v3/customer/${id}/_revision`).expect(200)).body.response;
    expect(revisions.map((r: { revision_note: string }) => r.revision_note)).toEqual(['Customer created']);
    const events = await eventsFor('customer', id);
    expect(events.map((e) => e.event)).toEqual(['insert']);
    expect((events[0].data as { customer: { company: string } }).customer.company).toBe(company);
  }

  it('creates customers of one turn with one INSERT, each with its own revision and insert event', async () => {
    const insertMany = jest.spyOn(insertRowModule, 'insertRowsReturningIds');
    try {
      const outcomes = await createInOneTurn([
        { company: 'Turn One', external_key: 'turn-one' },
        { company: 'Turn Two', external_key: 'turn-two' },
        { company: 'Turn Three', external_key: 'turn-three' },
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const customerInserts = insertMany.mock.calls.filter(
        ([, entity]) => (entity as { name?: string }).name === 'Customer',
      );
      // One INSERT for the turn; with turn batching off (DB_FAST_PATHS) each create is alone,
      // through the single-row insert.
      expect(customerInserts.map(([, , rows]) => rows.length)).toEqual(fastPath('turn-batch') ? [3] : []);
      const ids = outcomes.map((o) => (o as PromiseFulfilledResult<number>).value);
      for (const [k, company] of ['Turn One', 'Turn Two', 'Turn Three'].entries()) await createdOnce(ids[k], company);
    } finally {
      insertMany.mockRestore();
    }
  });

  it('fails a taken external key in a turn alone: the others are created once, it writes nothing', async () => {
    await t.post('/api/v3/customer', { company: 'Holder', external_key: 'turn-taken' }).expect(201);
    const count = async (): Promise<number> => (await t.get('/api/v3/customer/_count').expect(200)).body.response;
    const before = await count();
    const outcomes = await createInOneTurn([
      { company: 'Turn Good', external_key: 'turn-good' },
      { company: 'Turn Taken', external_key: 'turn-taken' },
      { company: 'Turn Twice', external_key: 'turn-twice' },
      { company: 'Turn Twice again', external_key: 'turn-twice' },
      // Other columns: a set of its own.
      { company: 'Turn Other', bill_city: 'Austin' },
    ]);
    expect([0, 1, 4].map((k) => outcomes[k].status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The two asks for one new key: whichever writes first has it, the other is refused.
    const twice = [2, 3].map((k) => outcomes[k]);
    expect(twice.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    for (const [o, key] of [
      [outcomes[1], '"turn-taken"'],
      [twice.find((x) => x.status === 'rejected')!, '"turn-twice"'],
    ] as const) {
      const reason = (o as PromiseRejectedResult).reason as { code: number; message: string };
      expect(reason.code).toBe(400);
      expect(reason.message).toContain(key);
    }
    const value = (k: number) => (outcomes[k] as PromiseFulfilledResult<number>).value;
    await createdOnce(value(0), 'Turn Good');
    await createdOnce(value(4), 'Turn Other');
    const winner = twice[0].status === 'fulfilled' ? 2 : 3;
    await createdOnce(value(winner), winner === 2 ? 'Turn Twice' : 'Turn Twice again');
    expect(await count()).toBe(before + 3);
  });

  it('records customer insert with the customer exactly as a read presents it', async () => {
    const body = {
      company: 'As Read',
      external_key: 'as-read-1',
      bill_addr1: '1 Main St',
      bill_city: 'Austin',
      bill_state: 'TX',
      bill_postcode: '78701',
      bill_country: 'US',
      ship_addr1: '2 Side St',
      custom_3: 'three',
      terms_id: 2,
      no_taxes: true,
      no_dunning: true,
      invoice_delivery: 'print',
      tax_ident: 'TX-99',
      tags: ['vip', 'net30'],
    };
    const id = (await t.post('/api/v3/customer', body).expect(201)).body.response.id as number;
    const [insert] = await eventsFor('customer', id);
    const read = (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response as Record<string, unknown>;
    expect(read).toMatchObject({ company: 'As Read', no_taxes: true, terms_id: 2, tags: ['vip', 'net30'] });
    expect(insert.data).toEqual({ customer: read, user: null });
  });

  it('records customer update, and super when the main contact changes', async () => {
    const id = (
      await t.post('/api/v3/customer', { company: 'Supers', superuser_email: 'first@example.com' }).expect(201)
    ).body.response.id as number;
    const second = (await t.post('/api/v3/user', { customer_id: id, email: 'second@example.com' }).expect(201)).body
      .response.id as number;
    await t.put(`/api/v3/customer/${id}`, { superuser_id: second }).expect(202);
    const events = await eventsFor('customer', id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'join', 'update', 'super']);
    const superEvent = events[3];
    expect(Object.keys(superEvent.data).sort()).toEqual(['customer', 'user', 'user_id']);
    expect(superEvent.data.user_id).toBeNull();
    expect(superEvent.data.user).toMatchObject({ user_id: second, email: 'second@example.com' });
    expect(superEvent.data.customer).toMatchObject({ superuser_id: second, superuser_email: 'second@example.com' });
  });

  it('records user insert and update for a main contact written through PUT superuser_* fields', async () => {
    const id = (await t.post('/api/v3/customer', { company: 'Later Contact' }).expect(201)).body.response.id as number;
    await t.put(`/api/v3/customer/${id}`, { superuser_email: 'later@example.com' }).expect(202);
    const userId = (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response.superuser_id as number;
    expect(userId).toEqual(expect.any(Number));
    await t.put(`/api/v3/customer/${id}`, { superuser_first_name: 'Lou' }).expect(202);

    const userEvents = await eventsFor('user', userId);
    expect(userEvents.map((e) => e.event)).toEqual(['insert', 'update']);
    expect(userEvents[0].data).toEqual({
      user: expect.objectContaining({ user_id: userId, email: 'later@example.com' }),
      the_users_password: null,
    });
    const read = (await t.get(`/api/v3/user/${userId}`).expect(200)).body.response as Record<string, unknown>;
    expect(read).toMatchObject({ first_name: 'Lou', email: 'later@example.com' });
    expect(userEvents[1].data).toEqual({ user: read });
    const revisions = (await t.get(`/api/v3/user/${userId}/_revision`).expect(200)).body.response;
    expect(revisions.map((r: { revision_note: string }) => r.revision_note)).toEqual([
      'Contact updated as main contact',
      'Contact created as main contact',
    ]);
    // The PUT that created the main contact changed it (from none): super, with the new contact.
    const customerEvents = await eventsFor('customer', id);
    expect(customerEvents.map((e) => e.event)).toEqual(['insert', 'update', 'super', 'update']);
    expect(customerEvents[2].data).toEqual({
      user_id: null,
      customer: expect.objectContaining({ customer_id: id, superuser_id: userId }),
      user: expect.objectContaining({ user_id: userId, email: 'later@example.com' }),
    });
  });

  it('records super when a first contact becomes the main contact, and when the main contact is deleted', async () => {
    const id = (await t.post('/api/v3/customer', { company: 'No Contact Yet' }).expect(201)).body.response.id as number;
    const first = (await t.post('/api/v3/user', { customer_id: id, email: 'first@nocontact.test' }).expect(201)).body
      .response.id as number;
    // A second contact leaves the main contact as it is: join only.
    const second = (await t.post('/api/v3/user', { customer_id: id, email: 'second@nocontact.test' }).expect(201)).body
      .response.id as number;
    expect((await eventsFor('customer', id)).map((e) => e.event)).toEqual(['insert', 'join', 'super', 'join']);
    const claimed = (await eventsFor('customer', id))[2];
    expect(claimed.data).toEqual({
      user_id: null,
      customer: expect.objectContaining({ superuser_id: first, superuser_email: 'first@nocontact.test' }),
      user: expect.objectContaining({ user_id: first }),
    });

    // Deleting a contact that is not the main one changes nothing on the customer.
    await t.del(`/api/v3/user/${second}`).expect(200);
    expect((await eventsFor('customer', id)).map((e) => e.event)).toEqual(['insert', 'join', 'super', 'join']);
    await t.del(`/api/v3/user/${first}`).expect(200);
    const events = await eventsFor('customer', id);
    expect(events.map((e) => e.event)).toEqual(['insert', 'join', 'super', 'join', 'super']);
    expect(events[4].data).toEqual({
      user_id: null,
      customer: expect.objectContaining({ customer_id: id, superuser_id: null, superuser_email: null }),
      user: null,
    });
  });

  it('refuses a main contact of another customer and writes nothing', async () => {
    const a = (await t.post('/api/v3/customer', { company: 'A', superuser_email: 'a1@example.com' }).expect(201)).body
      .response.id as number;
    const b = (await t.post('/api/v3/customer', { company: 'B', superuser_email: 'b1@example.com' }).expect(201)).body
      .response.id as number;
    const bContact = (await t.get(`/api/v3/customer/${b}`)).body.response.superuser_id as number;
    const before = await eventsFor('customer', a);
    const res = await t.put(`/api/v3/customer/${a}`, { company: 'A changed', superuser_id: bContact }).expect(400);
    expect(res.body.message).toContain('superuser_id');
    expect((await t.get(`/api/v3/customer/${a}`)).body.response.company).toBe('A');
    expect(await eventsFor('customer', a)).toHaveLength(before.length);
  });

  it('marks events of a request with _flag_webhooks=0 as suppressed', async () => {
    const id = (await t.post('/api/v3/customer?_flag_webhooks=0', { company: 'Quiet' }).expect(201)).body.response
      .id as number;
    const [insert] = await eventsFor('customer', id);
    expect(insert.suppress_webhooks).toBe(true);
  });

  it('stamps write and mod datetimes from the clock', async () => {
    t.clock.set(new Date('2026-03-01T12:00:00Z'));
    const id = (await t.post('/api/v3/customer', { company: 'Timed' }).expect(201)).body.response.id as number;
    t.clock.set(new Date('2026-03-02T18:30:05Z'));
    await t.put(`/api/v3/customer/${id}`, { company: 'Timed 2' }).expect(202);
    const c = (await t.get(`/api/v3/customer/${id}`)).body.response;
    expect(c.write_datetime).toBe('2026-03-01T06:00:00-06:00');
    expect(c.mod_datetime).toBe('2026-03-02T12:30:05-06:00');
    const after = await t
      .get('/api/v3/customer/_count?where=mod_datetime:GT:2026-03-02 12:30:04,company:EQUALS:Timed 2')
      .expect(200);
    expect(after.body.response).toBe(1);
    const exact = await t
      .get('/api/v3/customer/_count?where=write_datetime:EQUALS:2026-03-01T06:00:00-06:00')
      .expect(200);
    expect(exact.body.response).toBe(1);
    t.clock.reset();
  });
});
