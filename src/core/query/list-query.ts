import { DateTime } from 'luxon';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { FieldMap } from './field-map';
import { ungluePaging } from './glued-paging';
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
  raw: ListQueryInput,
  opts: ListQueryOptions,
): Paging {
  const query = ungluePaging(raw);
  const where = compileWhere(qb.getParameters(), fields, query.where, opts.timezone);
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
  addWhere(qb, compileWhere(qb.getParameters(), fields, ungluePaging({ where }).where, timezone));
  return qb;
}

/**
 * `where`, `order` and paging as SQL text after the FROM clause, for a raw read
 * (`EntityReader`): the same rules, messages and bound parameters as `applyListQuery`.
 */
export function listQueryClause(
  fields: FieldMap,
  raw: ListQueryInput,
  opts: ListQueryOptions,
): { where?: string; tail: string; params: Record<string, unknown>; paging: Paging } {
  const query = ungluePaging(raw);
  const where = compileWhere({}, fields, query.where, opts.timezone);
  const order = compileOrder(fields, parseOrder(singleQueryParam('order', query.order)), opts.defaultOrder);
  const paging = parsePaging(query.offset, query.limit);
  const params: Record<string, unknown> = {};
  for (const clause of where) Object.assign(params, clause.params);
  return {
    where: where.length > 0 ? where.map((clause) => clause.sql).join(' AND ') : undefined,
    tail: `ORDER BY ${order.map((key) => `${key.expr} ${key.dir}`).join(', ')} ${limitSql(paging)}`,
    params,
    paging,
  };
}

/**
 * LIMIT/OFFSET as literals: they are integers that `parsePaging` produced and bounded,
 * never client text. SQLite plans a literal LIMIT for the few rows it will return (a
 * bound one reads a page of wide rows about twice as slowly).
 */
function limitSql(paging: Paging): string {
  if (!Number.isSafeInteger(paging.limit) || !Number.isSafeInteger(paging.offset)) {
    throw new Error('limitSql: paging must be integers');
  }
  return `LIMIT ${paging.limit} OFFSET ${paging.offset}`;
}

/** Zones already checked (the check builds a Luxon DateTime: not on every request). */
const validZones = new Set<string>();

function compileWhere(taken: ObjectLiteral, fields: FieldMap, where: unknown, timezone: string): WhereClause[] {
  // A bad zone is our configuration error (a 500), not the client's 400.
  if (!validZones.has(timezone)) {
    if (!DateTime.now().setZone(timezone).isValid) throw new Error(`Invalid account time zone: ${timezone}`);
    validZones.add(timezone);
  }
  const conditions = parseWhere(singleQueryParam('where', where));
  const names = freeParamNames(taken, conditions.length);
  return conditions.map((condition, i) => compileWhereClause(fields, condition, timezone, names[i]));
}

function addWhere(qb: SelectQueryBuilder<ObjectLiteral>, clauses: WhereClause[]): void {
  for (const clause of clauses) qb.andWhere(clause.sql, clause.params);
}

/** Parameter names not yet used on this builder, so our values never overwrite the caller's. */
function freeParamNames(taken: ObjectLiteral, count: number): string[] {
  const names: string[] = [];
  for (let i = 0; names.length < count; i++) {
    const name = `${PARAM_PREFIX}${i}`;
    if (!Object.prototype.hasOwnProperty.call(taken, name)) names.push(name);
  }
  return names;
}
