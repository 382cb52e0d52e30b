import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, ValidationError } from 'class-validator';
import { ApiError } from 'src/core/envelope/api-error';
import { BodyRules, bodyRulesOf } from './body-rules';
import { cacheValidationRules, validatePresent } from './rule-cache';

export type DtoClass<T> = new () => T;

cacheValidationRules();

const allowedCache = new Map<DtoClass<object>, Set<string>>();
/** Per rules object: the names accepted beside a DTO's own fields (extra ones and aliases). */
const extraCache = new WeakMap<BodyRules, Set<string>>();

function extraFields(rules: BodyRules): Set<string> {
  let extra = extraCache.get(rules);
  if (!extra) {
    extra = new Set([...(rules.extraAllowed ?? []), ...Object.values(rules.aliases ?? {}).flat()]);
    extraCache.set(rules, extra);
  }
  return extra;
}

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
 * The rules are the DTO's own (`@BodyRules`): a caller cannot pass others, so no
 * controller repeats or bends them.
 */
export function validateBody<T extends object>(dto: DtoClass<T>, body: unknown): T {
  const rules = bodyRulesOf(dto);
  const fields = body === undefined || body === null || body === '' ? {} : asObject(body);
  if (!fields) throw ApiError.badRequest('The request body must be a JSON object.');
  if (rules.requireData && Object.keys(fields).length === 0) {
    throw ApiError.badRequest('A required parameter was missing: No data.');
  }
  const allowed = allowedFields(dto);
  const extra = extraFields(rules);
  const readOnly = new Set(rules.readOnly ?? []);
  const refused = Object.keys(fields).filter((key) => !allowed.has(key) && !extra.has(key));
  if (refused.length > 0) {
    const named = refused.map((key) => (readOnly.has(key) ? `"${key}" is read-only` : `"${key}" is not a known field`));
    throw ApiError.badRequest(`Invalid field${refused.length > 1 ? 's' : ''}: ${named.join('; ')}.`);
  }
  const instance = plainToInstance(dto, underOwnNames(fields, rules));
  const errors = validatePresent(instance, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) throw ApiError.badRequest(describe(errors));
  return instance;
}

/**
 * The body with each aliased field under its own name, after the presence rules: per field
 * in the order declared (aliased ones first), two of its names sent, then none sent when
 * it is required, are the 400.
 */
function underOwnNames(fields: Record<string, unknown>, rules: BodyRules): Record<string, unknown> {
  const aliases = rules.aliases ?? {};
  const required = new Set(rules.required ?? []);
  if (required.size === 0 && Object.keys(aliases).length === 0) return fields;
  const renamed = { ...fields };
  for (const field of new Set([...Object.keys(aliases), ...required])) {
    const names = [field, ...(aliases[field] ?? [])];
    const sent = names.filter((name) => fields[name] !== undefined);
    if (sent.length > 1) throw ApiError.badRequest(`Send only one of ${sent.join(', ')}.`);
    if (sent.length === 0) {
      if (required.has(field)) throw ApiError.badRequest(`A required parameter was missing: "${field}".`);
      continue;
    }
    if (sent[0] !== field) {
      renamed[field] = fields[sent[0]];
      delete renamed[sent[0]];
    }
  }
  return renamed;
}

function describe(errors: ValidationError[]): string {
  const parts = errors.slice(0, 5).map((e) => {
    const constraint = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
    return `Invalid field "${e.property}": ${constraint}.`;
  });
  return parts.join(' ');
}
