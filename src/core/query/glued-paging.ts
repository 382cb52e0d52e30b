import type { ListQueryInput } from './list-query';

/**
 * The reference PHP client glues its paging onto the parameter before it, without `&`:
 * `where=customer_id:EQUALS:44limit=100?offset=0`, `order=invoice_date:DESClimit=1?offset=0`
 * (the recorded traffic, answered 200 with the filter, sort and page applied). The `?`
 * inside a value is the mark of that bug: such a tail becomes `limit` and `offset`, unless
 * the request also names them properly.
 */
const GLUED = /limit=(\d+)\?offset=(\d+)$/;

export function ungluePaging(query: ListQueryInput): ListQueryInput {
  let out = query;
  for (const name of ['where', 'order'] as const) {
    const value = out[name];
    if (typeof value !== 'string') continue;
    const glued = GLUED.exec(value);
    if (glued === null) continue;
    out = {
      where: out.where,
      order: out.order,
      limit: out.limit ?? glued[1],
      offset: out.offset ?? glued[2],
      [name]: value.slice(0, glued.index),
    };
  }
  return out;
}
