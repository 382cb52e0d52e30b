/**
 * A small program written against the TypeScript client generated from the server's own
 * OpenAPI document (`openapi-typescript` types, `openapi-fetch` calls): what an integrator
 * would write. `test/generated-client.e2e-spec.ts` generates `generated/billing-api.d.ts`,
 * type-checks this file against it (strict) and runs it against a test server.
 */
import createClient from 'openapi-fetch';
import type { paths } from './generated/billing-api';

export interface TourResult {
  customerId: number;
  itemId: number;
  invoiceId: number;
  subscriptionId: number;
  paymentId: number;
  invoiceBefore: { total: unknown; balance: unknown; status: unknown };
  invoiceAfter: { balance: unknown; status: unknown };
  customersFound: number[];
}

/** The `response` of a success envelope, or an Error naming the call and the server's message. */
function responseOf<T>(call: string, answer: { data?: { response: T }; error?: unknown }): T {
  if (answer.data === undefined) {
    throw new Error(`${call}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data.response;
}

export async function tour(baseUrl: string, authorization: string, runId: string): Promise<TourResult> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: authorization } });

  const customer = responseOf(
    'create customer',
    await api.POST('/api/v3/customer', {
      body: {
        company: 'Generated Client Ltd',
        external_key: `gen-${runId}`,
        superuser_email: 'billing@generated.example',
        bill_city: 'Chicago',
        bill_country: 'United States',
      },
    }),
  );

  // Graduated tiers: units 1-10 at 5.00, 11 and up at 4.00.
  const item = responseOf(
    'create item',
    await api.POST('/api/v3/item', {
      body: {
        name: `Tiered widget ${runId}`,
        tiersets: [
          {
            currency_id: 1,
            pricemodel: 'tie',
            paycycle: 'mon',
            tiers: [
              { unit_from: 1, unit_to: 10, amount: 5 },
              { unit_from: 11, unit_to: null, amount: 4 },
            ],
          },
        ],
      },
    }),
  );

  const invoice = responseOf(
    'create invoice',
    await api.POST('/api/v3/invoice', {
      body: {
        customer_id: customer.id,
        line_items: [{ item_id: item.id, line_quantity: 12, descrip: 'Twelve widgets' }],
      },
    }),
  );

  const subscription = responseOf(
    'create subscription',
    await api.POST('/api/v3/package', {
      body: { customer_id: customer.id, paycycle: 'mon', line_items: [{ item_id: item.id, line_quantity: 3 }] },
    }),
  );

  const read = responseOf(
    'read invoice',
    await api.GET('/api/v3/invoice/{ref}', { params: { path: { ref: String(invoice.id) } } }),
  );

  const paid = responseOf(
    'pay invoice',
    await api.POST('/api/v3/invoice/{ref}?action=pay', {
      params: { path: { ref: String(invoice.id) } },
      body: { paymethods: [{ number: '4242424242424242', expdate_year: 2030, expdate_month: 1, cvv: '123' }] },
    }),
  );
  if (typeof paid !== 'object' || paid === null || typeof paid.id !== 'number') {
    throw new Error(`pay invoice: no transaction id in ${JSON.stringify(paid)}`);
  }

  const after = responseOf(
    'read paid invoice',
    await api.GET('/api/v3/invoice/{ref}', { params: { path: { ref: String(invoice.id) } } }),
  );

  const found = responseOf(
    'list customers',
    await api.GET('/api/v3/customer', { params: { query: { where: `external_key:EQUALS:gen-${runId}`, limit: 10 } } }),
  );

  return {
    customerId: customer.id,
    itemId: item.id,
    invoiceId: invoice.id,
    subscriptionId: subscription.id,
    paymentId: paid.id,
    invoiceBefore: { total: read.total, balance: read.balance, status: read.invoice_status_str },
    invoiceAfter: { balance: after.balance, status: after.invoice_status_str },
    customersFound: found.map((c) => Number(c.customer_id)),
  };
}
