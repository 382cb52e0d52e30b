import { createId } from './catalog-fixtures';
import { TestApp } from './test-app';

type Fields = Record<string, unknown>;

/** POST /customer (201): a customer with a main contact; `fields` add to or replace the defaults. */
export function newCustomer(t: TestApp, fields: Fields = {}, query = ''): Promise<number> {
  return createId(t, `/api/v3/customer${query}`, { company: 'Payer', superuser_email: 'payer@example.com', ...fields });
}

/** POST /item (201): a flat 100.00 monthly service unless `fields` say otherwise. */
export function newItem(t: TestApp, fields: Fields = {}): Promise<number> {
  return createId(t, '/api/v3/item', {
    name: 'Service',
    pricemodel: { pricemodel: 'fla', base: 100, paycycle: 'mon' },
    ...fields,
  });
}

/** POST /invoice (201) for the customer: one line of `item` at `rate`, dated `date`. */
export function newInvoice(
  t: TestApp,
  customerId: number,
  item: number,
  { date = '2026-11-01', rate = '100.00' }: { date?: string; rate?: string } = {},
): Promise<number> {
  return createId(t, '/api/v3/invoice', {
    customer_id: customerId,
    date,
    line_items: [{ item_id: item, line_rate: rate, line_quantity: 1 }],
  });
}

/** A card's fields as a payment or POST /creditcard takes them: the test gateway's approving Visa. */
export function newCard(fields: Fields = {}): Fields {
  return { number: '4242424242424242', expdate_year: 2030, expdate_month: 1, cvv: '123', ...fields };
}

/** POST /invoice (201) for the customer with these `line_items`; `fields` add to the body. */
export function newInvoiceOf(t: TestApp, customerId: number, lines: Fields[], fields: Fields = {}): Promise<number> {
  return createId(t, '/api/v3/invoice', { customer_id: customerId, line_items: lines, ...fields });
}

/** POST /package (201): a subscription of the customer to these `line_items`; `fields` add to the body. */
export function newSubscription(t: TestApp, customerId: number, lines: Fields[], fields: Fields = {}): Promise<number> {
  return createId(t, '/api/v3/package', { customer_id: customerId, line_items: lines, ...fields });
}

/** POST /quote (201) for the customer with these `line_items`; `fields` add to the body. */
export function newQuote(t: TestApp, customerId: number, lines: Fields[], fields: Fields = {}): Promise<number> {
  return createId(t, '/api/v3/quote', { customer_id: customerId, line_items: lines, ...fields });
}
