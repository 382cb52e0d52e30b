import { DateTime } from 'luxon';
import { TestApp } from './test-app';
import { Json } from './json';

/** The account zone of the test app. */
export const ACCOUNT_ZONE = 'America/Chicago';

/** An instant of the account zone given its wall-clock date and time, as ISO 8601. */
export function wall(date: string, time = '10:00:00'): string {
  return DateTime.fromISO(`${date}T${time}`, { zone: ACCOUNT_ZONE }).toISO({ suppressMilliseconds: true })!;
}

/**
 * Reads and actions a billing scenario asserts on, through the API as a client would:
 * a subscription, its invoices (each read by id, with lines and figures), a customer's
 * credit memos, a customer.
 */
export function subscriptionReads(t: TestApp) {
  const invoice = async (id: number): Promise<Json> => (await t.get(`/api/v3/invoice/${id}`).expect(200)).body.response;
  const pkg = async (id: number): Promise<Json> => (await t.get(`/api/v3/package/${id}`).expect(200)).body.response;
  return {
    pkg,
    invoice,
    act: (id: number, action: string, body: Json = {}) => t.post(`/api/v3/package/${id}?action=${action}`, body),
    invoicesOf: async (id: number): Promise<Json[]> => {
      const list = (
        await t.get(`/api/v3/invoice?where=package_id:EQUALS:${id}&order=invoice_id:ASC&limit=500`).expect(200)
      ).body.response as Json[];
      return Promise.all(list.map((i) => invoice(i.invoice_id as number)));
    },
    creditsOf: async (customer: number): Promise<Json[]> =>
      (
        await t
          .get(
            `/api/v3/transaction?where=customer_id:EQUALS:${customer},transaction_type:EQUALS:cre&order=transaction_id:ASC`,
          )
          .expect(200)
      ).body.response as Json[],
    customerOf: async (id: number): Promise<Json> => (await t.get(`/api/v3/customer/${id}`).expect(200)).body.response,
    /** The id of the subscription's live line of `item`. */
    lineOf: async (id: number, item: number): Promise<number> =>
      ((await pkg(id)).line_items as Json[]).find((l) => l.item_id === item)!.line_item_id as number,
  };
}
