import SwaggerParser from '@apidevtools/swagger-parser';
import type express from 'express';
import { createId } from './support/catalog-fixtures';
import { newCard, newCustomer, newInvoice, newItem, newQuote, newSubscription } from './support/factories';
import { createTestApp, TestApp } from './support/test-app';

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the Express app answers (Nest's controllers), as `METHOD /path/{param}`. */
function servedRoutes(t: TestApp): string[] {
  const http = t.app.getHttpAdapter().getInstance() as express.Express & { router: { stack: RouterLayer[] } };
  const routes: string[] = [];
  for (const layer of http.router.stack) {
    // The catch-all that answers unknown paths with the 400 envelope is no route of the API.
    if (!layer.route || layer.route.path.includes('{/*splat}')) continue;
    const path = layer.route.path.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/(.)\/$/, '$1');
    for (const method of Object.keys(layer.route.methods)) routes.push(`${method.toUpperCase()} ${path}`);
  }
  return routes;
}

describe('OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is served without a credential, validates as OpenAPI 3 and lists every route the server answers', async () => {
    const res = await t.http.get('/api/v3/_openapi.json').expect(200);
    const document = res.body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toMatch(/^3\./);
    await SwaggerParser.validate(structuredClone(document) as never);

    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const own = /^(GET|HEAD) \/api\/(docs|v3\/_openapi\.json)/;
    const served = servedRoutes(t).filter((route) => !own.test(route) && !route.startsWith('HEAD '));
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('describes POST /customer: its fields, the envelope, HTTP Basic and the list parameters', async () => {
    const document = (await t.http.get('/api/v3/_openapi.json').expect(200)).body;
    const create = document.paths['/api/v3/customer'].post;
    expect(create.security).toEqual([{ basic: [] }]);
    const bodyRef: string = create.requestBody.content['application/json'].schema.$ref;
    const body = document.components.schemas[bodyRef.split('/').pop() as string];
    expect(body.properties.company).toMatchObject({ type: 'string', maxLength: 255 });
    expect(body.properties.terms_id).toMatchObject({ type: 'integer' });
    expect(create.responses['201'].content['application/json'].schema.$ref).toBe('#/components/schemas/IdEnvelope');
    expect(document.components.schemas.IdEnvelope.properties.response).toMatchObject({
      required: ['id'],
      properties: { id: { type: 'integer' } },
    });
    expect(document.paths['/api/v3/customer/{ref}'].put.responses['202']).toBeDefined();
    expect(create.responses.default.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorEnvelopeSchema',
    );
    const listParams = document.paths['/api/v3/customer'].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams).toEqual(expect.arrayContaining(['where', 'order', 'offset', 'limit']));
    expect(document.paths['/api/v3/customer/{ref}'].post.parameters.map((p: { name: string }) => p.name)).toContain(
      'action',
    );
    expect(document.components.securitySchemes.basic).toEqual({ type: 'http', scheme: 'basic' });
  });

  type Schema = { $ref?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema };
  type Operation = {
    summary?: string;
    tags?: string[];
    requestBody?: { content: Record<string, { schema: Schema; example?: unknown }> };
  };

  it('gives every operation a summary and its resource tag, the teapot tag last', async () => {
    const document = (await t.http.get('/api/v3/_openapi.json').expect(200)).body;
    const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(operations.filter(({ operation }) => !operation.summary)).toEqual([]);
    expect(operations.filter(({ operation }) => operation.tags?.length !== 1)).toEqual([]);
    const tags = (document.tags as { name: string }[]).map((tag) => tag.name);
    expect(tags.slice(0, 3)).toEqual(['customer', 'user', 'invoice']);
    expect(tags[tags.length - 1]).toBe('teapot');
    expect(document.paths['/api/v3/invoice/{ref}'].get.tags).toEqual(['invoice']);
  });

  it("lists each action as its own operation with its body's fields", async () => {
    const document = (await t.http.get('/api/v3/_openapi.json').expect(200)).body;
    const schemas = document.components.schemas as Record<string, Schema>;
    const resolve = (schema: Schema): Schema => (schema.$ref ? schemas[schema.$ref.split('/').pop()!] : schema);
    const bodyOf = (path: string): Schema => {
      const operation = document.paths[path]?.post as Operation | undefined;
      if (!operation) throw new Error(`no operation POST ${path}`);
      return resolve(operation.requestBody!.content['application/json'].schema);
    };
    // SPEC "Contacts" and "Transactions", and the recorded refund.
    expect(Object.keys(bodyOf('/api/v3/user/{ref}?action=password').properties!)).toEqual(['password']);
    expect(Object.keys(bodyOf('/api/v3/user/{ref}?action=getLoginURL').properties!)).toEqual(['destination']);
    expect(Object.keys(bodyOf('/api/v3/transaction?action=pay').properties!)).toEqual(
      expect.arrayContaining([
        'customer_id',
        'customer_token',
        'customer_external_key',
        'amount',
        'applied_to',
        'paymethods',
      ]),
    );
    expect(Object.keys(bodyOf('/api/v3/transaction/{ref}?action=decline').properties!)).toEqual([
      'gateway_msg',
      'gateway_err_code',
      'gateway_err_detail',
    ]);
    const change = bodyOf('/api/v3/transaction/{ref}?action=changeAppliedAmounts');
    expect(change.required).toEqual(['applied_to']);
    expect(Object.keys(bodyOf('/api/v3/transaction/{ref}?action=email').properties!)).toEqual(
      expect.arrayContaining(['email', 'cc', 'bcc', 'subject', 'body', 'html', 'from', 'message_id']),
    );
    expect(Object.keys(bodyOf('/api/v3/transaction/{ref}?action=refund').properties!)).toEqual(['amount']);
    expect(document.paths['/api/v3/transaction/{ref}?action=void'].post.summary).toBe('Void the transaction');
    expect(Object.keys(bodyOf('/api/v3/package/{ref}?action=welcome').properties!)).toContain('message_id');
    // An example from the recorded traffic.
    const refund = document.paths['/api/v3/transaction/{ref}?action=refund'].post as Operation;
    expect(refund.requestBody!.content['application/json'].example).toEqual({ amount: 10.0 });
  });

  it('describes nested bodies and required fields', async () => {
    const document = (await t.http.get('/api/v3/_openapi.json').expect(200)).body;
    const schemas = document.components.schemas as Record<string, Schema>;
    const named = (ref: string | undefined): Schema => schemas[ref!.split('/').pop()!];
    const invoice = schemas.CreateInvoiceDto;
    expect(invoice.required).toEqual(['line_items']);
    expect(Object.keys(invoice.properties!)).toEqual(
      expect.arrayContaining(['customer_id', 'customer_token', 'customer_external_key', 'bill_addr1', 'ship_country']),
    );
    const line = named(invoice.properties!.line_items.items!.$ref);
    expect(Object.keys(line.properties!)).toEqual(
      expect.arrayContaining(['item_id', 'descrip', 'line_rate', 'line_quantity', 'custom_10']),
    );
    const tierset = named(schemas.CreateItemDto.properties!.tiersets.items!.$ref);
    expect(Object.keys(tierset.properties!)).toEqual(
      expect.arrayContaining(['pricemodel', 'base', 'setup', 'paycycle', 'tiers']),
    );
    expect(named(tierset.properties!.tiers.items!.$ref).required).toEqual(['unit_from', 'amount']);
    expect(schemas.CreateItemDto.required).toEqual(['name']);
    expect(schemas.CreateQuoteDto.required).toEqual(expect.arrayContaining(['paycycle', 'line_items']));
    expect(schemas.CreateSubscriptionDto.required).toEqual(['line_items']);
    expect(schemas.RecordTransactionDto.required).toEqual(
      expect.arrayContaining(['transaction_type', 'gateway_method', 'amount']),
    );
    expect(schemas.CreateTaxDto.properties!.rate).toMatchObject({ type: 'number' });
  });

  it("types each read's envelope by its presenter's response class, field for field as it answers", async () => {
    const document = (await t.http.get('/api/v3/_openapi.json').expect(200)).body;
    type Described = {
      $ref?: string;
      type?: string;
      nullable?: boolean;
      enum?: unknown[];
      properties?: Record<string, Described>;
      required?: string[];
      items?: Described;
    };
    const schemas = document.components.schemas as Record<string, Described>;
    const named = (ref: string | undefined): Described => schemas[ref!.split('/').pop()!];
    /** The class a route's envelope names for its `response` (a list's: its entries'). */
    const responseOf = (path: string, list: boolean): Described => {
      const envelope = document.paths[path].get.responses['200'].content['application/json'].schema as Described;
      const response = envelope.properties!.response;
      return named(list ? response.items!.$ref : response.$ref);
    };
    /** The answer's fields are the class's, and each nested object's are its class's. */
    const expectDescribes = (schema: Described, answer: Record<string, unknown>, where: string): void => {
      // Every field answered is described, and every field described as required is answered.
      const undescribed = Object.keys(answer).filter((field) => !(field in schema.properties!));
      const unanswered = (schema.required ?? []).filter((field) => !(field in answer));
      expect({ where, undescribed, unanswered }).toEqual({ where, undescribed: [], unanswered: [] });
      const JSON_TYPES: Record<string, string> = {
        integer: 'number',
        number: 'number',
        string: 'string',
        boolean: 'boolean',
      };
      const mistyped = Object.entries(answer).flatMap(([field, value]) => {
        const { type, nullable, enum: choices } = schema.properties![field];
        if (value === null) return nullable ? [] : [`${field}: null`];
        if (choices && !choices.includes(value)) return [`${field}: ${JSON.stringify(value)} not in the enum`];
        const expected = type && JSON_TYPES[type];
        return expected && typeof value !== expected ? [`${field}: ${typeof value}, described ${type}`] : [];
      });
      expect({ where, mistyped }).toEqual({ where, mistyped: [] });
      for (const [field, value] of Object.entries(answer)) {
        const property = schema.properties![field];
        const nested = property.$ref ? named(property.$ref) : property.items?.$ref ? named(property.items.$ref) : null;
        const first = Array.isArray(value) ? (value[0] as unknown) : value;
        if (nested && first && typeof first === 'object') {
          expectDescribes(nested, first as Record<string, unknown>, `${where}.${field}`);
        }
      }
    };

    const item = await newItem(t, {
      pricemodel: { pricemodel: 'tie', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: 10, amount: 5 }] },
    });
    const customer = await newCustomer(t);
    const invoice = await newInvoice(t, customer, item);
    await newSubscription(t, customer, [{ item_id: item }]);
    await newQuote(t, customer, [{ item_id: item }], { paycycle: 'mon' });
    await createId(t, '/api/v3/transaction', {
      customer_id: customer,
      transaction_type: 'cre',
      gateway_method: 'credit',
      amount: '5.00',
      applied_to: [{ invoice_id: invoice, applied: '5.00' }],
    });
    for (const resource of ['customer', 'user', 'item', 'invoice', 'package', 'quote', 'transaction']) {
      const [listed] = (await t.get(`/api/v3/${resource}?limit=1`).expect(200)).body.response;
      expectDescribes(responseOf(`/api/v3/${resource}`, true), listed, `list ${resource}`);
      const ref = String(listed[`${resource}_id`]);
      const one = (await t.get(`/api/v3/${resource}/${ref}`).expect(200)).body.response;
      expectDescribes(responseOf(`/api/v3/${resource}/{ref}`, false), one, `read ${resource}`);
    }
    const tax = (await t.post('/api/v3/tax', { name: 'Described tax', rate: 2 }).expect(201)).body.response.id;
    const [listedTax] = (await t.get('/api/v3/tax').expect(200)).body.response;
    expectDescribes(responseOf('/api/v3/tax', true), listedTax, 'list tax');
    const oneTax = (await t.get(`/api/v3/tax/${tax}`).expect(200)).body.response;
    expectDescribes(responseOf('/api/v3/tax/{id}', false), oneTax, 'read tax');
    const card = await createId(t, '/api/v3/creditcard', newCard({ customer_id: customer }));
    const [listedCard] = (await t.get('/api/v3/creditcard').expect(200)).body.response;
    expectDescribes(responseOf('/api/v3/creditcard', true), listedCard, 'list creditcard');
    const oneCard = (await t.get(`/api/v3/creditcard/${card}`).expect(200)).body.response;
    expectDescribes(responseOf('/api/v3/creditcard/{ref}', false), oneCard, 'read creditcard');
  });

  it('has a browsable page at /api/docs without a credential', async () => {
    const res = await t.http.get('/api/docs').redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });
});
