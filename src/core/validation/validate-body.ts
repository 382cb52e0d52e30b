import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationError } from 'class-validator';
import { ApiError } from 'src/core/envelope/api-error';
import { BodyRules, bodyRulesOf } from './body-rules';
import { cacheValidationRules, validatePresent } from './rule-cache';

export type DtoClass<T> = new () => T;

cacheValidationRules();

const allowedCache = new Map<DtoClass<object>, Set<string>>();

function allowedFields(dto: DtoClass<object>): Set<string> {
  let allowed = allowedCache.get(dto);
  if (!allowed) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    allowed = new Set(metadata.map((m) => m.propertyName));
    allowedCache.set(dto, allowed);
  }
  return allowed;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The object a client meant, or undefined when it sent something else. PHP encodes an
 * empty array and an empty object alike as `[]`, so wherever an object is expected `[]`
 * reads as `{}` (DESIGN §4 Actions); a non-empty array stays a mistake the caller names.
 */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value) && value.length === 0) return {};
  return isPlainObject(value) ? value : undefined;
}

/**
 * Validates a write body against its DTO: unknown and read-only fields are refused by
 * name, then every field's type and format; the first problems are listed in one 400.
 * The rules are the DTO's own (`@BodyRules`) unless given here.
 */
export function validateBody<T extends object>(
  dto: DtoClass<T>,
  body: unknown,
  rules: BodyRules = bodyRulesOf(dto),
): T {
  const fields = body === undefined || body === null || body === '' ? {} : asObject(body);
  if (!fields) throw ApiError.badRequest('The request body must be a JSON object.');
  if (rules.requireData && Object.keys(fields).length === 0) {
    throw ApiError.badRequest('A required parameter was missing: No data.');
  }
  const allowed = allowedFields(dto);
  const extra = new Set(rules.extraAllowed ?? []);
  const readOnly = new Set(rules.readOnly ?? []);
  const refused = Object.keys(fields).filter((key) => !allowed.has(key) && !extra.has(key));
  if (refused.length > 0) {
    const named = refused.map((key) => (readOnly.has(key) ? `"${key}" is read-only` : `"${key}" is not a known field`));
    throw ApiError.badRequest(`Invalid field${refused.length > 1 ? 's' : ''}: ${named.join('; ')}.`);
  }
  const instance = plainToInstance(dto, fields);
  const errors = validatePresent(instance, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) throw ApiError.badRequest(describe(errors));
  return instance;
}

function describe(errors: ValidationError[]): string {
  const parts = errors.slice(0, 5).map((e) => {
    const constraint = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
    return `Invalid field "${e.property}": ${constraint}.`;
  });
  return parts.join(' ');
}
