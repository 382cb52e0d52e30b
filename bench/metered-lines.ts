/** The metered lines usage records name (`npm run bench:usage`, bench/ablation.ts), made through the API. */

/** Subscriptions (one customer and one metered line each) the records are spread over. */
export const METERED_LINES = 20;
/** Records in one bulk request: SPEC's maximum. */
export const BULK_SIZE = 1000;

/** A metered item, then per line a customer and a subscription holding that item; the lines' ids. */
export async function createMeteredLines(baseUrl: string, authorization: string): Promise<number[]> {
  const post = (path: string, body: unknown): Promise<{ id: number }> =>
    call(baseUrl, authorization, 'POST', path, body) as Promise<{ id: number }>;
  const item = await post('/api/v3/item', {
    name: 'Bench API calls',
    external_key: 'bench-api-calls',
    is_usage: true,
    pricemodel: { pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: 0.01 }] },
  });
  const lineIds: number[] = [];
  for (let n = 1; n <= METERED_LINES; n++) {
    const customer = await post('/api/v3/customer', { company: `Metered ${n}`, external_key: `metered-${n}` });
    const pkg = await post('/api/v3/package', { customer_id: customer.id, line_items: [{ item_id: item.id }] });
    const read = (await call(baseUrl, authorization, 'GET', `/api/v3/package/${pkg.id}`)) as {
      line_items: Array<{ line_item_id: number }>;
    };
    lineIds.push(read.line_items[0].line_item_id);
  }
  return lineIds;
}

async function call(
  baseUrl: string,
  authorization: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { authorization, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { response: unknown }).response;
}
