import { JSONPath } from 'jsonpath-plus';
import { Envelope } from 'src/core/envelope/envelope';

const SUFFIX = '_jsonpath';

/** What earlier entries answered, by their `id`. */
export type EarlierResults = ReadonlyMap<string, Envelope>;

export class JsonPathReferenceError extends Error {}

/**
 * Replaces every `<name>_jsonpath: "<id>:<JSONPath>"` key (at any depth of the payload)
 * with `<name>` set to the value found in the envelope of the earlier entry `<id>`.
 * Script evaluation is off: a filter or script expression is refused, never run.
 */
export function resolveJsonPathReferences(
  payload: Record<string, unknown>,
  earlier: EarlierResults,
): Record<string, unknown> {
  return resolveObject(payload, earlier);
}

function resolveValue(value: unknown, earlier: EarlierResults): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, earlier));
  if (typeof value === 'object' && value !== null) return resolveObject(value as Record<string, unknown>, earlier);
  return value;
}

function resolveObject(object: Record<string, unknown>, earlier: EarlierResults): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (key.endsWith(SUFFIX) && key.length > SUFFIX.length) {
      result[key.slice(0, -SUFFIX.length)] = lookup(key, value, earlier);
    } else {
      result[key] = resolveValue(value, earlier);
    }
  }
  return result;
}

function lookup(key: string, reference: unknown, earlier: EarlierResults): unknown {
  if (typeof reference !== 'string' || !reference.includes(':')) {
    throw new JsonPathReferenceError(`"${key}" must be "<request id>:<JSONPath>".`);
  }
  const at = reference.indexOf(':');
  const id = reference.slice(0, at);
  const path = reference.slice(at + 1);
  const source = earlier.get(id);
  if (!source)
    throw new JsonPathReferenceError(`"${key}" refers to "${id}", which is not an earlier request of this _bulk.`);
  if (source.status !== 'OK') {
    throw new JsonPathReferenceError(`"${key}" refers to "${id}", which failed (${source.code}).`);
  }
  let found: unknown[];
  try {
    found = JSONPath<unknown[]>({ path, json: source, wrap: true, eval: false });
  } catch {
    throw new JsonPathReferenceError(
      `"${key}": "${path}" is not a JSONPath this service evaluates (no scripts or filters).`,
    );
  }
  if (!Array.isArray(found) || found.length === 0) {
    throw new JsonPathReferenceError(`"${key}": "${path}" finds nothing in the response of "${id}".`);
  }
  return found.length === 1 ? found[0] : found;
}
