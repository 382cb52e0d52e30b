import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { Contact } from 'src/customers/entities/contact.entity';
import { LoginToken } from 'src/contacts/entities/login-token.entity';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { createId } from './support/catalog-fixtures';
import { createTestApp, TestApp } from './support/test-app';

interface Envelope<T> {
  code: number;
  status: 'OK' | 'Error';
  message: string;
  details: Record<string, unknown>;
  response: T;
}

interface WireContact {
  user_id: number;
  external_key: string | null;
  first_name: string | null;
  middle_name_glob: string | null;
  last_name: string | null;
  name_suffix: string | null;
  title: string;
  email: string | null;
  token: string;
  phone: string;
  mobile: string;
  user_type_id: number;
  user_type_name: string | null;
  write_datetime: string;
  mod_datetime: string;
  name: string;
  display_as: string;
  username: string;
  customer_id: number;
  url_self: string;
  customers: Array<{ customer_id: string; company: string | null }>;
  [custom: `custom_${number}`]: string | null;
}

interface WireCustomer {
  customer_id: number;
  superuser_id: number | null;
  superuser_email: string | null;
}

interface WireRevision {
  context_str: string;
  context_id: number;
  revision_note: string;
  integration_name: string | null;
}

/** The typed envelope of a response. */
function env<T = unknown>(res: Response): Envelope<T> {
  return res.body as Envelope<T>;
}

const BASE = 'https://billing.example.test';
const START = new Date('2026-03-02T15:00:00Z');
const DESTINATIONS = [
  'subscriptions',
  'invoices',
  'payments',
  'info',
  'paymethods',
  'paymethods-creditcard',
  'paymethods-ach',
  'password',
];

function nullCustomFields(): Record<string, null> {
  const fields: Record<string, null> = {};
  for (let i = 1; i <= 20; i++) fields[`custom_${i}`] = null;
  return fields;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

describe('contacts (/api/v3/user)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(START);
  });
  afterAll(async () => {
    await t.close();
  });

  const createCustomer = (body: Record<string, unknown>) => createId(t, '/api/v3/customer', body);

  async function createContact(body: Record<string, unknown>, query = ''): Promise<number> {
    const res = await t.post(`/api/v3/user${query}`, body).expect(201);
    return env<{ id: number }>(res).response.id;
  }

  async function getContact(ref: number | string): Promise<WireContact> {
    return env<WireContact>(await t.get(`/api/v3/user/${ref}`).expect(200)).response;
  }

  async function getCustomer(id: number): Promise<WireCustomer> {
    return env<WireCustomer>(await t.get(`/api/v3/customer/${id}`).expect(200)).response;
  }

  async function countContacts(where?: string): Promise<number> {
    const res = await t.get(`/api/v3/user/_count${where ? `?where=${where}` : ''}`).expect(200);
    return env<number>(res).response;
  }

  async function listContacts(query: string): Promise<WireContact[]> {
    return env<WireContact[]>(await t.get(`/api/v3/user?${query}`).expect(200)).response;
  }

  /** Expects a 400 error envelope and returns its message. */
  async function badRequest(res: Promise<Response>): Promise<string> {
    const body = env<false>(await res);
    expect(body).toEqual({ code: 400, status: 'Error', message: expect.any(String), details: {}, response: false });
    return body.message;
  }

  function eventsOf(contextStr: string, contextId: number): Promise<DomainEvent[]> {
    return t.dataSource.getRepository(DomainEvent).find({
      where: { context_str: contextStr, context_id: String(contextId) },
      order: { domain_event_id: 'ASC' },
    });
  }

  function mailsOf(userId: number): Promise<MailMessage[]> {
    return t.dataSource.getRepository(MailMessage).find({
      where: { context_str: 'user', context_id: userId },
      order: { mail_message_id: 'ASC' },
    });
  }

  function storedContact(userId: number): Promise<Contact> {
    return t.dataSource.getRepository(Contact).findOneOrFail({ where: { user_id: userId }, withDeleted: true });
  }

  async function loginUrl(userId: number, body?: Record<string, unknown>): Promise<string> {
    const res = await t.post(`/api/v3/user/${userId}?action=getLoginURL`, body).expect(200);
    return env<string>(res).response;
  }

  describe('create and read', () => {
    it('creates a contact with customer_id and reads it back in the recorded shape', async () => {
      const customerId = await createCustomer({ company: 'IR Free Signup' });
      expect((await getCustomer(customerId)).superuser_id).toBeNull();

      const res = await t
        .post('/api/v3/user', {
          first_name: 'John',
          last_name: 'Doe',
          email: 'jd@example.com',
          customer_id: customerId,
        })
        .expect(201);
      expect(env(res)).toEqual({
        code: 201,
        status: 'OK',
        message: '',
        details: {},
        response: { id: expect.any(Number) },
      });
      const id = env<{ id: number }>(res).response.id;
      expect(res.get('Location')).toBe(`${BASE}/api/v3/user/${id}`);

      const read = await t.get(`/api/v3/user/${id}`).expect(200);
      expect(env(read)).toMatchObject({ code: 200, status: 'OK', message: '', details: {} });
      const contact = env<WireContact>(read).response;
      expect(contact).toEqual({
        user_id: id,
        external_key: null,
        first_name: 'John',
        middle_name_glob: null,
        last_name: 'Doe',
        name_suffix: null,
        title: '',
        email: 'jd@example.com',
        token: expect.stringMatching(/^[a-z0-9]{12}$/),
        phone: '',
        mobile: '',
        user_type_id: 1,
        user_type_name: 'Billing contact',
        write_datetime: '2026-03-02T09:00:00-06:00',
        mod_datetime: '2026-03-02T09:00:00-06:00',
        name: 'John Doe',
        display_as: 'John Doe',
        username: expect.stringMatching(/^[a-z0-9]{12}$/),
        customer_id: customerId,
        ...nullCustomFields(),
        url_self: `${BASE}/api/v3/user/${id}`,
        customers: [{ customer_id: String(customerId), company: 'IR Free Signup' }],
      });
      expect(contact.username).not.toBe(contact.token);

      // The first contact of a customer without a main contact becomes it; later ones do not.
      expect(await getCustomer(customerId)).toMatchObject({ superuser_id: id, superuser_email: 'jd@example.com' });
      await createContact({ first_name: 'Second', email: 'second@example.com', customer_id: customerId });
      expect(await getCustomer(customerId)).toMatchObject({ superuser_id: id, superuser_email: 'jd@example.com' });
    });

    it('stores every writable field, including custom fields and a chosen username', async () => {
      const customerId = await createCustomer({ company: 'Full Fields' });
      const id = await createContact({
        customer_id: String(customerId),
        external_key: 'full-1',
        username: 'full.fields@example.com',
        first_name: 'Mary',
        middle_name_glob: 'Ann',
        last_name: 'Jones',
        name_suffix: 'Jr.',
        title: 'CFO',
        email: 'mary@example.com',
        phone: '8025551212',
        mobile: '8025559999',
        user_type_id: '1',
        custom_1: 'one',
        custom_2: 42,
        custom_20: true,
      });
      expect(await getContact(id)).toMatchObject({
        external_key: 'full-1',
        username: 'full.fields@example.com',
        first_name: 'Mary',
        middle_name_glob: 'Ann',
        last_name: 'Jones',
        name_suffix: 'Jr.',
        title: 'CFO',
        email: 'mary@example.com',
        phone: '8025551212',
        mobile: '8025559999',
        user_type_id: 1,
        user_type_name: 'Billing contact',
        name: 'Mary Ann Jones',
        display_as: 'Mary Ann Jones',
        custom_1: 'one',
        custom_2: '42',
        custom_3: null,
        custom_20: 'true',
        customer_id: customerId,
      });
    });

    it('splits a written name into first, middle and last name, as the recorded service does', async () => {
      const customerId = await createCustomer({ company: 'Named' });
      const id = await createContact({ customer_id: customerId, name: "Keith's Test Cmopany" });
      expect(await getContact(id)).toMatchObject({
        first_name: "Keith's",
        middle_name_glob: 'Test',
        last_name: 'Cmopany',
        name: "Keith's Test Cmopany",
        display_as: "Keith's Test Cmopany",
      });
    });

    it('creates a contact by customer_token and by customer_external_key', async () => {
      const customerId = await createCustomer({ company: 'Ref Co', external_key: 'ref-co' });
      const { token } = env<{ token: string }>(await t.get(`/api/v3/customer/${customerId}`).expect(200)).response;

      const byToken = await createContact({ customer_token: token, first_name: 'By', last_name: 'Token' });
      const byKey = await createContact({ customer_external_key: 'ref-co', first_name: 'By', last_name: 'Key' });
      for (const id of [byToken, byKey]) {
        const contact = await getContact(id);
        expect(contact.customer_id).toBe(customerId);
        expect(contact.customers).toEqual([{ customer_id: String(customerId), company: 'Ref Co' }]);
      }
      expect((await getCustomer(customerId)).superuser_id).toBe(byToken);
    });

    it('finds a contact by external key and by token in the path', async () => {
      const customerId = await createCustomer({ company: 'Path Refs' });
      const id = await createContact({ customer_id: customerId, external_key: 'path-ref-1', first_name: 'Pat' });
      const byKey = await getContact('external_key:path-ref-1');
      expect(byKey.user_id).toBe(id);
      expect((await getContact(`token:${byKey.token}`)).user_id).toBe(id);
    });

    it('answers 404 for a missing contact by id, external key or token', async () => {
      for (const ref of ['999999', 'external_key:nope', 'token:nope', 'abc']) {
        const res = await t.get(`/api/v3/user/${ref}`).expect(404);
        expect(env(res)).toEqual({
          code: 404,
          status: 'Error',
          message: 'This user does not exist.',
          details: {},
          response: null,
        });
      }
    });
  });

  describe('create errors', () => {
    let customerId: number;
    beforeAll(async () => {
      customerId = await createCustomer({ company: 'Errors Co', external_key: 'errors-co' });
      await createContact({
        customer_id: customerId,
        external_key: 'taken-key',
        username: 'taken-user',
        first_name: 'Taken',
      });
    });

    it('refuses each bad create with a 400 naming the problem, writing nothing', async () => {
      const before = await countContacts();
      const post = (body: unknown): Promise<Response> => t.post('/api/v3/user', body).expect(400);

      expect(await badRequest(post({}))).toBe('A required parameter was missing: No data.');
      expect(await badRequest(post({ first_name: 'No', last_name: 'Customer' }))).toContain('"customer_id"');
      expect(await badRequest(post({ customer_id: 999999, first_name: 'x' }))).toBe(
        'Field "customer_id": no customer with id 999999 exists.',
      );
      expect(await badRequest(post({ customer_token: 'nope', first_name: 'x' }))).toContain('"customer_token"');
      expect(await badRequest(post({ customer_external_key: 'nope', first_name: 'x' }))).toContain(
        '"customer_external_key"',
      );
      expect(await badRequest(post({ customer_id: customerId, customer_external_key: 'errors-co' }))).toBe(
        'Send only one of customer_id, customer_external_key to identify the customer.',
      );
      expect(await badRequest(post({ customer_id: customerId, colour: 'red' }))).toBe(
        'Invalid field: "colour" is not a known field.',
      );
      expect(await badRequest(post({ customer_id: customerId, user_type_name: 'Boss' }))).toBe(
        'Invalid field: "user_type_name" is read-only.',
      );
      expect(await badRequest(post({ customer_id: customerId, token: 'abcdefghijkl' }))).toBe(
        'Invalid field: "token" is read-only.',
      );
      expect(await badRequest(post({ customer_id: customerId, user_id: 5 }))).toBe(
        'Invalid field: "user_id" is read-only.',
      );
      expect(await badRequest(post({ customer_id: customerId, email: 5 }))).toBe(
        'Invalid field "email": email must be a string.',
      );
      expect(await badRequest(post({ customer_id: customerId, user_type_id: 'x' }))).toBe(
        'Invalid field "user_type_id": user_type_id must be an integer.',
      );
      expect(await badRequest(post({ customer_id: 'x' }))).toContain('"customer_id"');
      expect(await badRequest(post({ customer_id: customerId, user_type_id: 99 }))).toBe(
        'Field "user_type_id": no user_type with id 99 exists.',
      );
      expect(await badRequest(post({ customer_id: customerId, external_key: 'taken-key' }))).toBe(
        'Field "external_key": a user with external key "taken-key" already exists.',
      );
      expect(await badRequest(post({ customer_id: customerId, username: 'taken-user' }))).toBe(
        'Field "username": the username "taken-user" is already taken.',
      );
      expect(await badRequest(post({ customer_id: customerId, password: 'short' }))).toContain('"password"');
      expect(await badRequest(post({ customer_id: customerId, username: '' }))).toBe(
        'Invalid field "username": username must not be empty.',
      );
      expect(await badRequest(post({ customer_id: customerId, name: `Ann ${'x'.repeat(129)}` }))).toContain('"name"');
      expect(await badRequest(post([{ customer_id: customerId }]))).toBe('The request body must be a JSON object.');

      expect(await countContacts()).toBe(before);
    });

    it('never reuses the external key of a deleted contact (EXTERNAL_KEY_ON_DELETE=keep)', async () => {
      const id = await createContact({ customer_id: customerId, external_key: 'gone-key' });
      await t.del(`/api/v3/user/${id}`).expect(200);
      const before = await countContacts();
      expect(
        await badRequest(t.post('/api/v3/user', { customer_id: customerId, external_key: 'gone-key' }).expect(400)),
      ).toContain('external_key');
      expect(await countContacts()).toBe(before);
    });
  });

  describe('update', () => {
    it('updates fields with 202 and Location, and moves mod_datetime', async () => {
      const customerId = await createCustomer({ company: 'Update Co' });
      const id = await createContact({
        customer_id: customerId,
        first_name: 'Jane',
        last_name: 'Smith',
        email: 'jane@example.com',
      });
      const before = await getContact(id);

      t.clock.advance(60 * 60_000);
      const res = await t
        .put(`/api/v3/user/${id}`, {
          email: 'j@example.com',
          title: 'Owner',
          phone: '555',
          custom_3: 'c3',
          external_key: 'upd-1',
        })
        .expect(202);
      expect(env(res)).toEqual({ code: 202, status: 'OK', message: '', details: {}, response: { id } });
      expect(res.get('Location')).toBe(`${BASE}/api/v3/user/${id}`);

      const after = await getContact(id);
      expect(after).toMatchObject({
        email: 'j@example.com',
        title: 'Owner',
        phone: '555',
        custom_3: 'c3',
        external_key: 'upd-1',
        first_name: 'Jane',
        last_name: 'Smith',
        token: before.token,
        username: before.username,
        write_datetime: before.write_datetime,
      });
      expect(after.mod_datetime).not.toBe(before.mod_datetime);
      expect(Date.parse(after.mod_datetime) - Date.parse(before.mod_datetime)).toBe(60 * 60_000);

      // By external key and token in the path as well.
      await t.put('/api/v3/user/external_key:upd-1', { mobile: '777' }).expect(202);
      await t.put(`/api/v3/user/token:${before.token}`, { name_suffix: 'III' }).expect(202);
      expect(await getContact(id)).toMatchObject({ mobile: '777', name_suffix: 'III' });
    });

    it('sets first and last name from a written name (recorded: "Jane Smith" -> name "Jane Doe")', async () => {
      const customerId = await createCustomer({ company: 'Rename Co' });
      const id = await createContact({
        customer_id: customerId,
        first_name: 'Jane',
        last_name: 'Smith',
        email: 'jane@example.com',
      });
      await t.put(`/api/v3/user/${id}`, { name: 'Jane Doe', email: 'j@example.com' }).expect(202);
      expect(await getContact(id)).toMatchObject({
        first_name: 'Jane',
        middle_name_glob: null,
        last_name: 'Doe',
        email: 'j@example.com',
        name: 'Jane Doe',
        display_as: 'Jane Doe',
      });
      // The name follows later changes of its parts.
      await t.put(`/api/v3/user/${id}`, { last_name: 'Roe' }).expect(202);
      expect(await getContact(id)).toMatchObject({ name: 'Jane Roe', display_as: 'Jane Roe' });
    });

    it('refuses read-only, unknown and invalid fields, and taken keys or usernames', async () => {
      const customerId = await createCustomer({ company: 'Update Errors' });
      await createContact({ customer_id: customerId, external_key: 'upd-taken', username: 'upd-taken-user' });
      const id = await createContact({ customer_id: customerId, first_name: 'Keep' });
      const put = (body: unknown): Promise<Response> => t.put(`/api/v3/user/${id}`, body).expect(400);

      expect(await badRequest(put({ customer_id: customerId }))).toBe('Invalid field: "customer_id" is read-only.');
      expect(await badRequest(put({ customer_external_key: 'x' }))).toBe(
        'Invalid field: "customer_external_key" is read-only.',
      );
      expect(await badRequest(put({ customer_token: 'x' }))).toBe('Invalid field: "customer_token" is read-only.');
      expect(await badRequest(put({ display_as: 'x' }))).toBe('Invalid field: "display_as" is read-only.');
      expect(await badRequest(put({ mod_datetime: '2026-01-01' }))).toBe('Invalid field: "mod_datetime" is read-only.');
      expect(await badRequest(put({ shoe_size: 9 }))).toBe('Invalid field: "shoe_size" is not a known field.');
      expect(await badRequest(put({ first_name: ['a'] }))).toContain('"first_name"');
      expect(await badRequest(put({ user_type_id: 7 }))).toContain('user_type_id');
      expect(await badRequest(put({ external_key: 'upd-taken' }))).toContain('external_key');
      expect(await badRequest(put({ username: 'upd-taken-user' }))).toContain('username');
      expect(await badRequest(put({ password: 'short' }))).toContain('"password"');
      expect((await getContact(id)).first_name).toBe('Keep');

      // Its own key and username are not a conflict.
      await t.put(`/api/v3/user/${id}`, { external_key: 'upd-own' }).expect(202);
      const own = await getContact(id);
      await t.put(`/api/v3/user/${id}`, { external_key: 'upd-own', username: own.username }).expect(202);
    });

    it('answers 404 for an unknown contact', async () => {
      for (const ref of ['999999', 'external_key:nope', 'token:nope']) {
        const res = await t.put(`/api/v3/user/${ref}`, { first_name: 'x' }).expect(404);
        expect(env(res)).toEqual({
          code: 404,
          status: 'Error',
          message: 'This user does not exist.',
          details: {},
          response: null,
        });
      }
    });
  });

  describe('list and count', () => {
    let customerId: number;
    let other: number;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      customerId = await createCustomer({ company: 'List Co' });
      other = await createCustomer({ company: 'Other List Co' });
      const people = [
        {
          key: 'ann',
          first_name: 'Ann',
          last_name: 'Zeta',
          email: 'ann@list.example',
          phone: '111',
          username: 'list-ann',
        },
        {
          key: 'bob',
          first_name: 'Bob',
          last_name: 'Young',
          email: 'bob@list.example',
          phone: '222',
          username: 'list-bob',
        },
        {
          key: 'cat',
          first_name: 'Cat',
          last_name: 'Young',
          email: 'cat@list.example',
          phone: '333',
          username: 'list-cat',
        },
        {
          key: 'dan',
          first_name: 'Dan',
          last_name: 'Xylo',
          email: 'dan@other.example',
          phone: '444',
          username: 'list-dan',
        },
      ];
      for (const { key, ...fields } of people) {
        ids[key] = await createContact({ customer_id: customerId, external_key: `list-${key}`, ...fields });
      }
      ids.eve = await createContact({
        customer_id: other,
        first_name: 'Eve',
        last_name: 'Young',
        email: 'eve@list.example',
      });
    });

    const names = (contacts: WireContact[]): Array<string | null> => contacts.map((c) => c.first_name);
    const ofCustomer = (): string => `customers.customer_id:EQUALS:${customerId}`;

    it('lists the contacts of one customer in the recorded shape', async () => {
      const res = await t.get(`/api/v3/user?where=${ofCustomer()}`).expect(200);
      expect(env(res)).toMatchObject({ code: 200, status: 'OK', message: '', details: {} });
      const contacts = env<WireContact[]>(res).response;
      expect(names(contacts)).toEqual(['Ann', 'Bob', 'Cat', 'Dan']);
      expect(contacts[0]).toEqual(await getContact(ids.ann));
      expect(contacts[0].customers).toEqual([{ customer_id: String(customerId), company: 'List Co' }]);
      expect(names(await listContacts(`where=customers.customer_id:EQUALS:${other}`))).toEqual(['Eve']);
    });

    it('filters on every contact query field', async () => {
      expect(names(await listContacts(`where=user_id:EQUALS:${ids.bob}`))).toEqual(['Bob']);
      expect(names(await listContacts('where=external_key:EQUALS:list-cat'))).toEqual(['Cat']);
      expect(names(await listContacts('where=first_name:EQUALS:Dan'))).toEqual(['Dan']);
      expect(names(await listContacts('where=last_name:EQUALS:Young'))).toEqual(['Bob', 'Cat', 'Eve']);
      expect(names(await listContacts('where=email:EQUALS:ann@list.example'))).toEqual(['Ann']);
      expect(names(await listContacts('where=email:CONTAINS:@other.example'))).toEqual(['Dan']);
      expect(names(await listContacts(`where=phone:EQUALS:333,${ofCustomer()}`))).toEqual(['Cat']);
      expect(names(await listContacts(`where=user_type_id:EQUALS:1,${ofCustomer()}`))).toEqual([
        'Ann',
        'Bob',
        'Cat',
        'Dan',
      ]);
      expect(await listContacts('where=user_type_id:EQUALS:2')).toEqual([]);
      expect(names(await listContacts('where=username:EQUALS:list-dan'))).toEqual(['Dan']);
      expect(
        names(await listContacts(`where=last_name:EQUALS:Young,customers.customer_id:NOTEQUALS:${customerId}`)),
      ).toEqual(['Eve']);
      expect(names(await listContacts(`where=user_id:GT:${ids.bob},${ofCustomer()}`))).toEqual(['Cat', 'Dan']);
    });

    it('orders on several fields, pages with offset and limit, and counts', async () => {
      expect(names(await listContacts(`where=${ofCustomer()}&order=last_name:ASC`))).toEqual([
        'Dan',
        'Bob',
        'Cat',
        'Ann',
      ]);
      expect(names(await listContacts(`where=${ofCustomer()}&order=last_name:ASC,first_name:DESC`))).toEqual([
        'Dan',
        'Cat',
        'Bob',
        'Ann',
      ]);
      expect(names(await listContacts(`where=${ofCustomer()}&order=first_name:DESC`))).toEqual([
        'Dan',
        'Cat',
        'Bob',
        'Ann',
      ]);
      expect(names(await listContacts(`where=${ofCustomer()}&order=user_id:DESC`))).toEqual([
        'Dan',
        'Cat',
        'Bob',
        'Ann',
      ]);
      expect(names(await listContacts(`where=${ofCustomer()}&order=email:DESC`))).toEqual(['Dan', 'Cat', 'Bob', 'Ann']);
      expect(names(await listContacts(`where=${ofCustomer()}&order=phone:DESC`))).toEqual(['Dan', 'Cat', 'Bob', 'Ann']);
      expect(names(await listContacts(`where=${ofCustomer()}&order=username:ASC&offset=1&limit=2`))).toEqual([
        'Bob',
        'Cat',
      ]);
      expect(names(await listContacts(`where=${ofCustomer()}&offset=3`))).toEqual(['Dan']);
      expect(await listContacts(`where=${ofCustomer()}&offset=4`)).toEqual([]);

      expect(await countContacts(ofCustomer())).toBe(4);
      expect(await countContacts('last_name:EQUALS:Young')).toBe(3);
      expect(await countContacts('email:CONTAINS:list.example')).toBe(4);
    });

    it('pages 10 by default and refuses bad list parameters', async () => {
      const busy = await createCustomer({ company: 'Busy Co' });
      for (let i = 0; i < 11; i++)
        await createContact({ customer_id: busy, first_name: `Busy ${String(i).padStart(2, '0')}` });
      expect(await listContacts(`where=customers.customer_id:EQUALS:${busy}`)).toHaveLength(10);
      expect(await listContacts(`where=customers.customer_id:EQUALS:${busy}&limit=500`)).toHaveLength(11);
      expect(await badRequest(t.get('/api/v3/user?where=title:EQUALS:x').expect(400))).toContain('title');
      expect(await badRequest(t.get('/api/v3/user?order=title:ASC').expect(400))).toContain('title');
      expect(await badRequest(t.get('/api/v3/user?limit=501').expect(400))).toContain('limit');
      expect(await badRequest(t.get('/api/v3/user/_count?where=colour:EQUALS:red').expect(400))).toContain('colour');
    });
  });

  describe('delete', () => {
    it('deletes a contact: 200 true, then 404, gone from lists, main contact cleared, username free', async () => {
      const customerId = await createCustomer({ company: 'Delete Co' });
      const id = await createContact({ customer_id: customerId, username: 'reusable-name', email: 'del@example.com' });
      const second = await createContact({ customer_id: customerId, first_name: 'Stays' });
      expect((await getCustomer(customerId)).superuser_id).toBe(id);
      const countBefore = await countContacts(`customers.customer_id:EQUALS:${customerId}`);

      const res = await t.del(`/api/v3/user/${id}`).expect(200);
      expect(env(res)).toEqual({ code: 200, status: 'OK', message: '', details: {}, response: true });

      const gone = await t.get(`/api/v3/user/${id}`).expect(404);
      expect(env(gone)).toEqual({
        code: 404,
        status: 'Error',
        message: 'This user does not exist.',
        details: {},
        response: null,
      });
      expect(await countContacts(`customers.customer_id:EQUALS:${customerId}`)).toBe(countBefore - 1);
      expect(names(await listContacts(`where=customers.customer_id:EQUALS:${customerId}`))).toEqual(['Stays']);
      expect(await getCustomer(customerId)).toMatchObject({ superuser_id: null, superuser_email: null });
      expect((await getContact(second)).user_id).toBe(second);

      await t.del(`/api/v3/user/${id}`).expect(404);
      await t.put(`/api/v3/user/${id}`, { first_name: 'x' }).expect(404);
      await t.post(`/api/v3/user/${id}?action=password`, { password: 'long enough 1' }).expect(404);
      await t.post(`/api/v3/user/${id}?action=getLoginURL`).expect(404);

      const reused = await createContact({ customer_id: customerId, username: 'reusable-name' });
      expect((await getContact(reused)).username).toBe('reusable-name');
      // The customer had no main contact any more, so the new contact becomes it.
      expect((await getCustomer(customerId)).superuser_id).toBe(reused);
    });

    it('answers 404 when deleting an unknown contact', async () => {
      for (const ref of ['999999', 'external_key:nope', 'token:nope']) {
        const res = await t.del(`/api/v3/user/${ref}`).expect(404);
        expect(env(res).message).toBe('This user does not exist.');
      }
    });

    function names(contacts: WireContact[]): Array<string | null> {
      return contacts.map((c) => c.first_name);
    }
  });

  describe('action password', () => {
    let customerId: number;
    beforeAll(async () => {
      customerId = await createCustomer({ company: 'Password Co' });
    });

    it('sets a password: argon2 hash stored, plaintext nowhere in the row, a mail to the contact', async () => {
      const id = await createContact({
        customer_id: customerId,
        email: 'pw@example.com',
        first_name: 'Pia',
        username: 'pia',
      });
      const res = await t.post(`/api/v3/user/${id}?action=password`, { password: 'correct horse battery' }).expect(200);
      expect(env(res)).toEqual({ code: 200, status: 'OK', message: '', details: {}, response: true });

      const row = await storedContact(id);
      expect(row.password_hash).toMatch(/^\$argon2/);
      expect(Object.values(row).map((v) => String(v))).not.toContain('correct horse battery');
      expect(row.password_hash).not.toContain('correct horse battery');

      const mails = await mailsOf(id);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to_addr: 'pw@example.com', context_str: 'user', context_id: id });
      expect(mails[0].subject).toContain('password');
      expect(mails[0].body).toContain('Username: pia');

      // The password is never part of the contact's wire shape.
      const wire = await getContact(id);
      expect(wire).not.toHaveProperty('password');
      expect(wire).not.toHaveProperty('password_hash');
    });

    it('sends no mail with _flag_emails=0, also for a contact without an e-mail address', async () => {
      const id = await createContact({ customer_id: customerId, email: 'quiet@example.com' });
      await t.post(`/api/v3/user/${id}?action=password&_flag_emails=0`, { password: 'quiet password' }).expect(200);
      expect((await storedContact(id)).password_hash).toMatch(/^\$argon2/);
      expect(await mailsOf(id)).toEqual([]);

      const noEmail = await createContact({ customer_id: customerId, first_name: 'No Mail' });
      await t
        .post(`/api/v3/user/${noEmail}/_action/password?_flag_emails=0`, { password: 'another password' })
        .expect(200);
      expect((await storedContact(noEmail)).password_hash).toMatch(/^\$argon2/);
      expect(
        await badRequest(
          t.post(`/api/v3/user/${noEmail}?action=password`, { password: 'another password' }).expect(400),
        ),
      ).toContain('e-mail');
    });

    it('mails a reset link when no password is given, in both URL forms', async () => {
      const id = await createContact({ customer_id: customerId, email: 'reset@example.com' });
      const res = await t.post(`/api/v3/user/${id}?action=password`).expect(200);
      expect(env(res).response).toBe(true);
      expect((await storedContact(id)).password_hash).toBeNull();

      await t.post(`/api/v3/user/${id}/_action/password`, {}).expect(200);
      const mails = await mailsOf(id);
      expect(mails).toHaveLength(2);
      for (const mail of mails) {
        expect(mail.to_addr).toBe('reset@example.com');
        expect(mail.body).toMatch(new RegExp(`${BASE}/portal/password-reset/[A-Za-z0-9_-]{43}`));
      }
      // Each link is its own hashed, single-use token.
      const tokens = await t.dataSource
        .getRepository(LoginToken)
        .find({ where: { user_id: id, purpose: 'password-reset' } });
      expect(tokens).toHaveLength(2);

      await t.post(`/api/v3/user/${id}?action=password&_flag_emails=0`).expect(200);
      expect(await mailsOf(id)).toHaveLength(2);

      // The mailed link signs the contact in to the portal's password page, once.
      const link = /\/portal\/password-reset\/[A-Za-z0-9_-]{43}/.exec(mails[0].body)?.[0] ?? '';
      const page = await t.http.get(link).expect(200);
      expect(page.text).toContain('password');
      expect(page.get('Cache-Control')).toBe('no-store');
      await t.http.get(link).expect(410);
      // A login link is not a reset link, nor the other way round.
      const reset = /\/portal\/password-reset\/([A-Za-z0-9_-]{43})/.exec(mails[1].body)?.[1] ?? '';
      await t.http.get(`/portal/login/${reset}`).expect(410);
      // A reset link lasts 24 hours.
      t.clock.advance(24 * 60 * 60_000 + 1000);
      await t.http.get(`/portal/password-reset/${reset}`).expect(410);
    });

    it('sets the password through both URL forms and replaces the old hash', async () => {
      const id = await createContact({
        customer_id: customerId,
        email: 'both@example.com',
        password: 'first password',
      });
      const first = (await storedContact(id)).password_hash;
      expect(first).toMatch(/^\$argon2/);
      await t.post(`/api/v3/user/${id}/_action/password`, { password: 'second password' }).expect(200);
      const second = (await storedContact(id)).password_hash;
      expect(second).toMatch(/^\$argon2/);
      expect(second).not.toBe(first);
      await t.put(`/api/v3/user/${id}`, { password: 'third password' }).expect(202);
      expect((await storedContact(id)).password_hash).not.toBe(second);
    });

    it('refuses a too short, a non-string and an unknown field', async () => {
      const id = await createContact({ customer_id: customerId, email: 'short@example.com' });
      expect(await badRequest(t.post(`/api/v3/user/${id}?action=password`, { password: 'short' }).expect(400))).toBe(
        'Invalid field "password": password must be at least 8 characters long.',
      );
      expect(
        await badRequest(t.post(`/api/v3/user/${id}?action=password`, { password: 12345678 }).expect(400)),
      ).toContain('"password"');
      expect(await badRequest(t.post(`/api/v3/user/${id}?action=password`, { password: null }).expect(400))).toContain(
        '"password"',
      );
      expect(
        await badRequest(t.post(`/api/v3/user/${id}?action=password`, { pass: 'long enough' }).expect(400)),
      ).toContain('"pass"');
      expect((await storedContact(id)).password_hash).toBeNull();
      expect(await mailsOf(id)).toEqual([]);
    });
  });

  describe('action getLoginURL', () => {
    let customerId: number;
    let id: number;
    beforeAll(async () => {
      customerId = await createCustomer({ company: 'Login Co' });
      id = await createContact({ customer_id: customerId, email: 'login@example.com' });
    });

    const URL_PATTERN = /^https:\/\/billing\.example\.test\/portal\/login\/([A-Za-z0-9_-]{43})$/;
    const tokenOf = (url: string): string => URL_PATTERN.exec(url)?.[1] ?? '';

    it('returns a one-time URL that works once; the token is kept only hashed', async () => {
      const res = await t.post(`/api/v3/user/${id}?action=getLoginURL`).expect(200);
      expect(env(res)).toEqual({
        code: 200,
        status: 'OK',
        message: '',
        details: {},
        response: expect.stringMatching(URL_PATTERN),
      });
      const token = tokenOf(env<string>(res).response);

      const stored = await t.dataSource
        .getRepository(LoginToken)
        .findOneOrFail({ where: { token_sha256: sha256(token) } });
      expect(stored).toMatchObject({ user_id: id, purpose: 'login', destination: null, used_datetime: null });
      expect(stored.token_sha256).not.toBe(token);
      expect(await t.dataSource.getRepository(LoginToken).count({ where: { token_sha256: token } })).toBe(0);

      const first = await t.http.get(`/portal/login/${token}`).expect(200);
      expect(first.type).toBe('text/html');
      expect(first.text).toContain('home');
      const again = await t.http.get(`/portal/login/${token}`).expect(410);
      expect(again.text).toContain('expired or was already used');
      await t.http.get('/portal/login/not-a-real-token').expect(410);
    });

    it('accepts every destination of the spec (both URL forms) and refuses others', async () => {
      for (const destination of DESTINATIONS) {
        const url = await loginUrl(id, { destination });
        const stored = await t.dataSource
          .getRepository(LoginToken)
          .findOneOrFail({ where: { token_sha256: sha256(tokenOf(url)) } });
        expect(stored.destination).toBe(destination);
        const page = await t.http.get(`/portal/login/${tokenOf(url)}`).expect(200);
        expect(page.text).toContain(destination);
      }
      const byPath = await t.post(`/api/v3/user/${id}/_action/getLoginURL`, { destination: 'invoices' }).expect(200);
      expect(env<string>(byPath).response).toMatch(URL_PATTERN);

      for (const destination of ['home', 'admin', 'Invoices', '', 5]) {
        const message = await badRequest(t.post(`/api/v3/user/${id}?action=getLoginURL`, { destination }).expect(400));
        expect(message).toContain('"destination"');
      }
      expect(await badRequest(t.post(`/api/v3/user/${id}?action=getLoginURL`, { where: 'x' }).expect(400))).toContain(
        '"where"',
      );
    });

    it('is short-lived: usable just under 5 minutes, refused after 5 minutes', async () => {
      const early = tokenOf(await loginUrl(id));
      const late = tokenOf(await loginUrl(id));
      t.clock.advance(5 * 60_000 - 1000);
      await t.http.get(`/portal/login/${early}`).expect(200);
      t.clock.advance(2000);
      await t.http.get(`/portal/login/${late}`).expect(410);
    });

    it('refuses a login URL of a contact deleted after it was issued', async () => {
      const doomed = await createContact({ customer_id: customerId, email: 'doomed@example.com' });
      const token = tokenOf(await loginUrl(doomed));
      await t.del(`/api/v3/user/${doomed}`).expect(200);
      await t.http.get(`/portal/login/${token}`).expect(410);
    });

    it('needs no API credentials for the portal page, but does for the action', async () => {
      await t.http.post(`/api/v3/user/${id}?action=getLoginURL`).expect(401);
    });
  });

  describe('events', () => {
    it('records user/insert and customer/join on create, user/update and user/delete', async () => {
      const customerId = await createCustomer({ company: 'Events Co' });
      const id = await createContact({
        customer_id: customerId,
        first_name: 'Evan',
        email: 'evan@example.com',
        password: 'secret password',
      });

      const [insert] = await eventsOf('user', id);
      expect(insert).toMatchObject({
        context_str: 'user',
        context_id: String(id),
        event: 'insert',
        suppress_webhooks: false,
      });
      expect(Object.keys(insert.data).sort()).toEqual(['the_users_password', 'user']);
      // A password was set: the event says so, never what it is.
      expect(insert.data.the_users_password).toBe('********');
      expect(insert.data.user).toEqual(await getContact(id));
      expect(JSON.stringify(insert.data)).not.toContain('secret password');

      const joins = (await eventsOf('customer', customerId)).filter((e) => e.event === 'join');
      expect(joins).toHaveLength(1);
      expect(Object.keys(joins[0].data).sort()).toEqual(['customer', 'user', 'user_id']);
      expect(joins[0].data.user_id).toBeNull();
      expect(joins[0].data.user).toEqual(await getContact(id));
      expect(joins[0].data.customer).toMatchObject({ customer_id: customerId, company: 'Events Co', superuser_id: id });

      t.clock.advance(1000);
      await t.put(`/api/v3/user/${id}`, { last_name: 'Event' }).expect(202);
      const update = (await eventsOf('user', id)).filter((e) => e.event === 'update');
      expect(update).toHaveLength(1);
      expect(Object.keys(update[0].data)).toEqual(['user']);
      expect(update[0].data.user).toEqual(await getContact(id));
      expect(update[0].data.user).toMatchObject({ last_name: 'Event', name: 'Evan Event' });

      const beforeDelete = await getContact(id);
      await t.del(`/api/v3/user/${id}`).expect(200);
      const events = await eventsOf('user', id);
      expect(events.map((e) => e.event)).toEqual(['insert', 'update', 'delete']);
      expect(Object.keys(events[2].data)).toEqual(['user']);
      expect(events[2].data.user).toEqual(beforeDelete);
    });

    it('marks the rows of a request with _flag_webhooks=0 as suppressed', async () => {
      const customerId = await createCustomer({ company: 'Quiet Events Co' });
      const id = await createContact({ customer_id: customerId, first_name: 'Quiet' }, '?_flag_webhooks=0');
      const insert = await eventsOf('user', id);
      expect(insert).toHaveLength(1);
      expect(insert[0].suppress_webhooks).toBe(true);
      const join = (await eventsOf('customer', customerId)).filter((e) => e.event === 'join');
      expect(join.map((e) => e.suppress_webhooks)).toEqual([true]);

      await t.put(`/api/v3/user/${id}?_flag_webhooks=0`, { first_name: 'Still quiet' }).expect(202);
      await t.put(`/api/v3/user/${id}`, { first_name: 'Loud' }).expect(202);
      await t.del(`/api/v3/user/${id}?_flag_webhooks=0`).expect(200);
      const events = await eventsOf('user', id);
      expect(events.map((e) => [e.event, e.suppress_webhooks])).toEqual([
        ['insert', true],
        ['update', true],
        ['update', false],
        ['delete', true],
      ]);
    });
  });

  describe('revisions and unknown actions', () => {
    it('lists revisions newest first, with the end-customer context', async () => {
      const customerId = await createCustomer({ company: 'Revision Co' });
      const id = await createContact({ customer_id: customerId, email: 'rev@example.com' });
      await t
        .put(`/api/v3/user/${id}?on_behalf_addr=203.0.113.7&on_behalf_details=rev@example.com`, { title: 'Boss' })
        .expect(202);
      await t.post(`/api/v3/user/${id}?action=password&_flag_emails=0`, { password: 'revision password' }).expect(200);
      await t.post(`/api/v3/user/${id}?action=getLoginURL`).expect(200);

      const res = await t.get(`/api/v3/user/${id}/_revision`).expect(200);
      const revisions = env<WireRevision[]>(res).response;
      expect(revisions.map((r) => r.revision_note)).toEqual([
        'Login URL issued',
        'Password set',
        'Contact updated',
        'Contact created',
      ]);
      expect(revisions[0]).toMatchObject({ context_str: 'user', context_id: id, integration_name: 'test-integration' });
      expect(revisions[2]).toMatchObject({ on_behalf_addr: '203.0.113.7', on_behalf_details: 'rev@example.com' });

      const one = env<WireRevision[]>(await t.get(`/api/v3/user/${id}/_revision?limit=1`).expect(200)).response;
      expect(one.map((r) => r.revision_note)).toEqual(['Login URL issued']);
      expect(await badRequest(t.get(`/api/v3/user/${id}/_revision?limit=11`).expect(400))).toContain('limit');
      await t.get('/api/v3/user/999999/_revision').expect(404);
    });

    it('answers an unknown or missing action with 400 naming it, in both URL forms', async () => {
      const customerId = await createCustomer({ company: 'Action Co' });
      const id = await createContact({ customer_id: customerId });
      expect(await badRequest(t.post(`/api/v3/user/${id}?action=fly`).expect(400))).toContain('"fly"');
      expect(await badRequest(t.post(`/api/v3/user/${id}/_action/fly`).expect(400))).toContain('"fly"');
      expect(await badRequest(t.post(`/api/v3/user/${id}`).expect(400))).toContain('action');
      // On the collection too: a contact is not created when an action was asked for.
      const flying = { customer_id: customerId, first_name: 'Flying' };
      expect(await badRequest(t.post('/api/v3/user?action=fly', flying).expect(400))).toContain('"fly"');
      expect(await badRequest(t.post('/api/v3/user?action=', flying).expect(400))).toContain('action');
      expect(await countContacts('first_name:EQUALS:Flying')).toBe(0);
    });

    it('answers 401 without credentials', async () => {
      await t.http.get('/api/v3/user').expect(401);
    });
  });
});
