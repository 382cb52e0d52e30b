import { DateTime } from 'luxon';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { FieldMap } from './field-map';
import { SortKey, compileOrder } from './order-clause';
import { parseOrder } from './order-parser';
import { Paging, parsePaging } from './paging';
import { singleQueryParam } from './query-param';
import { WhereClause, compileWhereClause } from './where-clause';
import { parseWhere } from './where-parser';

/** The list parameters exactly as they arrived (Express: string, string[] or object). */
export interface ListQueryInput {
  where?: unknown;
  order?: unknown;
  offset?: unknown;
  limit?: unknown;
}

export interface ListQueryOptions {
  /** The account zone: `YYYY-MM-DD[ HH:mm:ss]` datetime values are read in it. */
  timezone: string;
  /** Trusted expression, e.g. `{expr: 'c.customer_id', dir: 'ASC'}`; always the last sort key. */
  defaultOrder: SortKey;
  /** false: validate offset/limit and return them, but leave paging to the caller. Default true. */
  paginate?: boolean;
}

const PARAM_PREFIX = 'lq_w';

/**
 * Applies `where`, `order`, `offset`, `limit` to a list query. Everything is validated
 * before the builder is touched, so a 400 leaves it unchanged. Returns the paging used.
 *
 * Paging uses `offset()`/`limit()` (SQL LIMIT/OFFSET), which is right for a query whose
 * rows are the resource's rows. With joins to many rows, pass `paginate: false` and use
 * `skip()`/`take()` with the returned paging instead.
 */
export function applyListQuery<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  fields: FieldMap,
  query: ListQueryInput,
  opts: ListQueryOptions,
): Paging {
  const where = compileWhere(qb, fields, query.where, opts.timezone);
  const order = compileOrder(fields, parseOrder(singleQueryParam('order', query.order)), opts.defaultOrder);
  const paging = parsePaging(query.offset, query.limit);

  addWhere(qb, where);
  for (const key of order) qb.addOrderBy(key.expr, key.dir);
  if (opts.paginate !== false) qb.offset(paging.offset).limit(paging.limit);
  return paging;
}

/** `where` only, for `/_count` endpoints (same rules as the list). */
export function applyWhere<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  fields: FieldMap,
  where: unknown,
  timezone: string,
): SelectQueryBuilder<T> {
  addWhere(qb, compileWhere(qb, fields, where, timezone));
  return qb;
}

function compileWhere(
  qb: SelectQueryBuilder<ObjectLiteral>,
  fields: FieldMap,
  where: unknown,
  timezone: string,
): WhereClause[] {
  // A bad zone is our configuration error (a 500), not the client's 400.
  if (!DateTime.now().setZone(timezone).isValid) throw new Error(`Invalid account time zone: ${timezone}`);
  const conditions = parseWhere(singleQueryParam('where', where));
  const names = freeParamNames(qb, conditions.length);
  return conditions.map((condition, i) => compileWhereClause(fields, condition, timezone, names[i]));
}

function addWhere(qb: SelectQueryBuilder<ObjectLiteral>, clauses: WhereClause[]): void {
  for (const clause of clauses) qb.andWhere(clause.sql, clause.params);
}

/** Parameter names not yet used on this builder, so our values never overwrite the caller's. */
function freeParamNames(qb: SelectQueryBuilder<ObjectLiteral>, count: number): string[] {
  const taken = qb.getParameters();
  const names: string[] = [];
  for (let i = 0; names.length < count; i++) {
    const name = `${PARAM_PREFIX}${i}`;
    if (!Object.prototype.hasOwnProperty.call(taken, name)) names.push(name);
  }
  return names;
}
