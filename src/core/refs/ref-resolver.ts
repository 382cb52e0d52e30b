import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { parsePathRef } from './path-ref';

/** How to find one kind of object by id, external key or token. */
export interface RefTarget<T extends ObjectLiteral> {
  entity: EntityTarget<T>;
  /** Primary key column, e.g. `customer_id`. */
  idColumn: string;
  /** Wire name for messages, e.g. `customer`. */
  resource: string;
}

/** Loads the object a path names, or throws the 404 envelope. */
export async function findByPathRef<T extends ObjectLiteral>(
  manager: EntityManager,
  target: RefTarget<T>,
  raw: string,
): Promise<T> {
  const ref = parsePathRef(raw);
  if (!ref) throw ApiError.notFound(target.resource);
  const where = ref.kind === 'id' ? { [target.idColumn]: ref.id } : { [ref.kind]: ref.value };
  const found = await manager.findOne(target.entity, { where: where as never });
  if (!found) throw ApiError.notFound(target.resource);
  return found;
}

/**
 * Narrows a read over `alias` to the object a path names, as SQL text and a bound
 * parameter, so a read by ref is the one query that also loads what the presenter needs.
 * Throws the 404 envelope for a path that cannot name an object; the caller answers 404
 * when the query finds no row.
 */
export function pathRefCondition(
  alias: string,
  target: RefTarget<ObjectLiteral>,
  raw: string,
): { where: string; params: Record<string, string | number> } {
  const ref = parsePathRef(raw);
  if (!ref) throw ApiError.notFound(target.resource);
  return ref.kind === 'id'
    ? { where: `${alias}.${target.idColumn} = :pathRefId`, params: { pathRefId: ref.id } }
    : { where: `${alias}.${ref.kind} = :pathRefValue`, params: { pathRefValue: ref.value } };
}

/**
 * Resolves a payload reference `<prefix>_id | <prefix>_token | <prefix>_external_key`
 * to an id. Exactly one may be sent; `undefined` when none was. An unknown reference is
 * a 400 naming the field.
 */
export async function resolvePayloadRef<T extends ObjectLiteral>(
  manager: EntityManager,
  target: RefTarget<T>,
  body: Record<string, unknown>,
  prefix: string,
): Promise<number | null | undefined> {
  const fields = [`${prefix}_id`, `${prefix}_token`, `${prefix}_external_key`].filter((f) => body[f] !== undefined);
  if (fields.length === 0) return undefined;
  if (fields.length > 1) {
    throw ApiError.badRequest(`Send only one of ${fields.join(', ')} to identify the ${target.resource}.`);
  }
  const field = fields[0];
  const value = body[field];
  if (value === null && field === `${prefix}_id`) return null;
  const column = field === `${prefix}_id` ? target.idColumn : field.slice(prefix.length + 1);
  const valid = column === target.idColumn ? isIdValue(value) : typeof value === 'string' && value !== '';
  if (!valid) {
    throw ApiError.badRequest(
      `Field "${field}" must be ${column === target.idColumn ? 'an integer id' : 'a non-empty string'}.`,
    );
  }
  const found = await manager.findOne(target.entity, {
    where: { [column]: column === target.idColumn ? Number(value) : value } as never,
    select: { [target.idColumn]: true } as never,
  });
  if (!found)
    throw ApiError.badRequest(
      `Field "${field}": no ${target.resource} with ${column === target.idColumn ? 'id' : column} ${JSON.stringify(value)} exists.`,
    );
  return (found as Record<string, number>)[target.idColumn];
}

function isIdValue(value: unknown): boolean {
  return (
    (typeof value === 'number' && Number.isInteger(value) && value > 0) ||
    (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value))
  );
}
