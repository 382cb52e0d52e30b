import fc from 'fast-check';
import { Catalog, createCatalog, createId } from './support/catalog-fixtures';
import { AUTH, createTestApp, TestApp } from './support/test-app';

/**
 * A property-based hostile corpus: every write endpoint and the query language get bodies
 * and parameters an attacker or a careless client would send (wrong types, huge and tiny
 * numbers, dates past the edges, control and astral characters, SQL, nesting, nulls). The
 * property: never a 5xx, and every answer is the JSON envelope. Runs on both databases
 * (MariaDB refused some values SQLite took); the seed is fixed so a failure replays.
 */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 60);
const SEED = 22;

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    "'; DROP TABLE customer; --",
    '" OR 1=1 --',
    '\\',
    '%',
    '_',
    '\u0000',
    '\ud800',
    '😀'.repeat(100),
    'x'.repeat(256),
    'x'.repeat(70_000),
    'a@b\r\nBcc: c@d',
    '9999-12-31',
    '0000-00-00',
    '1899-12-31',
    '3000-01-01 00:00:00',
    '2026-02-30',
    '2999-12-31T23:59:59-12:00',
    '1e309',
    '-0',
    'NaN',
    '0x10',
    '99999999999999999999.99',
    'null',
    'true',
  ),
);
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    0,
    -1,
    2_147_483_648,
    Number.MAX_SAFE_INTEGER + 2,
    1e21,
    999999999999.99,
    1000000000000,
    0.001,
    -0.01,
  ),
);
const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue = fc.oneof(
  { weight: 6, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), leaf, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.array(fc.dictionary(fc.constantFrom('item_id', 'amount', 'unit_from', 'id'), leaf)) },
);

/** A valid body (so the hostile field is what gets checked) with one or two hostile fields. */
function hostileBody(
  fields: readonly string[],
  base: Record<string, unknown> = {},
): fc.Arbitrary<Record<string, unknown>> {
  const name = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: fc.string() });
  return fc.dictionary(name, hostileValue, { minKeys: 1, maxKeys: 2 }).map((hostile) => ({ ...base, ...hostile }));
}

describe('hostile input: never a 5xx, always the envelope', () => {
  let t: TestApp;
  let catalog: Catalog;
  let customer: number;
  let invoice: number;
  let payment: number;

  beforeAll(async () => {
    t = await createTestApp();
    catalog = await createCatalog(t);
    customer = await createId(t, '/api/v3/customer', { company: 'Target', superuser_email: 'target@example.com' });
    invoice = await createId(t, '/api/v3/invoice', { customer_id: customer, line_items: [{ item_id: catalog.plan }] });
    payment = await createId(t, '/api/v3/transaction', {
      customer_id: customer,
      transaction_type: 'pay',
      gateway_method: 'check',
      amount: '1.00',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  function expectEnvelope(res: { status: number; body: unknown; text: string }, what: string): void {
    if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 300)}`);
    const body = res.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message', 'response', 'status']);
    expect(body.code).toBe(res.status);
  }

  /** The field names a resource reads back, plus the references and actions it takes. */
  async function fieldsOf(path: string, extra: string[] = []): Promise<string[]> {
    const one = (await t.get(path).expect(200)).body.response as Record<string, unknown>;
    return [...Object.keys(one), ...extra];
  }

  /** What each write needs to pass its other checks. */
  const bases = (): Record<string, Record<string, unknown>> => ({
    'create customer': { company: 'Hostile' },
    'create contact': { customer_id: customer },
    'create item': { name: 'Hostile' },
    'create invoice': { customer_id: customer, line_items: [{ item_id: catalog.plan }] },
    'record transaction': { customer_id: customer, transaction_type: 'pay', gateway_method: 'check', amount: '1.00' },
    'create card': { customer_id: customer, number: '4242424242424242', expdate_year: 2030, expdate_month: 1 },
    'create bank account': { customer_id: customer, account_number: '000123456789', routing_number: '110000000' },
    'create tax': { name: 'Hostile', rate: 1 },
    'create webhook': { target_url: 'https://hooks.example.com/h', event: 'customer.*' },
  });

  const writes: Array<[string, 'post' | 'put', () => string, () => Promise<string[]> | string[]]> = [
    ['create customer', 'post', () => '/api/v3/customer', () => fieldsOf(`/api/v3/customer/${customer}`, ['tags'])],
    ['update customer', 'put', () => `/api/v3/customer/${customer}`, () => fieldsOf(`/api/v3/customer/${customer}`)],
    [
      'create contact',
      'post',
      () => '/api/v3/user',
      () => ['customer_id', 'email', 'first_name', 'last_name', 'phone', 'title'],
    ],
    ['create item', 'post', () => '/api/v3/item', () => fieldsOf(`/api/v3/item/${catalog.seats}`, ['pricemodel'])],
    ['update item', 'put', () => `/api/v3/item/${catalog.plan}`, () => fieldsOf(`/api/v3/item/${catalog.plan}`)],
    ['create invoice', 'post', () => '/api/v3/invoice', () => fieldsOf(`/api/v3/invoice/${invoice}`)],
    ['update invoice', 'put', () => `/api/v3/invoice/${invoice}`, () => fieldsOf(`/api/v3/invoice/${invoice}`)],
    [
      'record transaction',
      'post',
      () => '/api/v3/transaction',
      () => fieldsOf(`/api/v3/transaction/${payment}`, ['applied_to', 'creditcard_id', 'ach_id', 'tokenized_id']),
    ],
    [
      'create card',
      'post',
      () => '/api/v3/creditcard',
      () => ['customer_id', 'number', 'expdate_year', 'expdate_month', 'cvv', 'name', 'postcode', 'country'],
    ],
    [
      'create bank account',
      'post',
      () => '/api/v3/ach',
      () => ['customer_id', 'account_number', 'routing_number', 'account_type', 'name'],
    ],
    ['create tax', 'post', () => '/api/v3/tax', () => ['name', 'tax_name', 'rate', 'tax_rate', 'tax_group_id']],
    ['create webhook', 'post', () => '/api/v3/_resthook', () => ['target_url', 'event', 'format']],
    [
      'setPayMethod',
      'post',
      () => `/api/v3/customer/${customer}?action=setPayMethod`,
      () => ['paymethod', 'creditcard_id', 'ach_id', 'tokenized_id'],
    ],
    [
      'transaction email',
      'post',
      () => `/api/v3/transaction/${payment}?action=email`,
      () => ['email', 'cc', 'bcc', 'subject', 'body', 'html', 'from', 'message_id'],
    ],
    [
      'transaction refund',
      'post',
      () => `/api/v3/transaction/${payment}?action=refund`,
      () => ['amount', 'transaction_date', 'transaction_datetime'],
    ],
  ];

  it.each(writes)(
    '%s',
    async (what, method, path, fields) => {
      const names = await fields();
      await fc.assert(
        fc.asyncProperty(hostileBody(names, bases()[what]), async (body) => {
          const res = await t[method](path(), body);
          expectEnvelope(res, `${method.toUpperCase()} ${path()} ${JSON.stringify(body).slice(0, 300)}`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    120_000,
  );

  it('_bulk with hostile entries', async () => {
    const entry = fc.record({
      request_method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'get'),
      uri: fc.oneof(
        fc.constantFrom('/api/v3/customer', '/api/v3/item', `/api/v3/customer/${customer}`),
        hostileString.map((s) => `/api/v3/customer/${s}`),
        hostileString.map((s) => `/api/v3/customer?where=${s}`),
      ),
      payload: fc.oneof(fc.constant(null), hostileBody(['company', 'name', 'customer_id', 'tags'])),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 4 }), async (entries) => {
        const res = await t.post('/api/v3/_bulk', entries);
        expectEnvelope(res, `_bulk ${JSON.stringify(entries).slice(0, 300)}`);
        if (res.status === 200) {
          for (const result of res.body.response._bulk as Array<{ code: number }>)
            expect(result.code).toBeLessThan(500);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 120_000);

  it('the query language', async () => {
    const fields = ['company', 'customer_id', 'write_datetime', 'balance', 'is_active', 'tags', 'custom_1', 'x'];
    const ops = ['EQUALS', 'NOTEQUALS', 'GREATER_THAN', 'LESS_THAN', 'LIKE', 'NOT_LIKE', 'IN', 'IS_NULL', 'BOGUS'];
    const where = fc.oneof(
      hostileString,
      fc
        .tuple(fc.constantFrom(...fields), fc.constantFrom(...ops), hostileString)
        .map(([f, op, v]) => `${f}:${op}:${v}`),
    );
    const params = fc.record({
      where,
      order_by: fc.oneof(hostileString, fc.constantFrom(...fields)),
      order_dir: fc.oneof(hostileString, fc.constantFrom('ASC', 'DESC')),
      limit: fc.oneof(hostileString, hostileNumber.map(String)),
      offset: fc.oneof(hostileString, hostileNumber.map(String)),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('customer', 'invoice', 'item', 'transaction', 'user'),
        params,
        async (resource, query) => {
          const res = await t.http.get(`/api/v3/${resource}`).query(query).set('Authorization', AUTH);
          expectEnvelope(res, `GET /${resource} ${JSON.stringify(query).slice(0, 300)}`);
        },
      ),
      { numRuns: RUNS * 4, seed: SEED },
    );
  }, 120_000);
});
