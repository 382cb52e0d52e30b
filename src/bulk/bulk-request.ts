import { ApiError } from 'src/core/envelope/api-error';
import { asObject, isPlainObject } from 'src/core/validation/validate-body';

export const MAX_BULK_ENTRIES = 25;
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type BulkMethod = (typeof METHODS)[number];

/** One call inside `POST /_bulk`. */
export interface BulkEntry {
  method: BulkMethod;
  uri: string;
  payload: Record<string, unknown> | null;
  id: string | null;
}

/**
 * Validates the whole bulk body up front: anything malformed fails the whole request
 * with a 400 that names the entry and the problem (DESIGN §6 "Bulk").
 */
export function parseBulkRequest(body: unknown): BulkEntry[] {
  if (!Array.isArray(body)) throw ApiError.badRequest('The _bulk body must be a JSON array of request objects.');
  if (body.length === 0) throw ApiError.badRequest('The _bulk array is empty: send 1 to 25 requests.');
  if (body.length > MAX_BULK_ENTRIES) {
    throw ApiError.badRequest(`Too many requests in _bulk: ${body.length} sent, at most ${MAX_BULK_ENTRIES} allowed.`);
  }
  const seenIds = new Set<string>();
  return body.map((raw, index) => {
    const entry = parseEntry(raw, index);
    if (entry.id !== null) {
      if (seenIds.has(entry.id)) throw entryError(index, `"id" "${entry.id}" is used by an earlier entry`);
      seenIds.add(entry.id);
    }
    return entry;
  });
}

function parseEntry(raw: unknown, index: number): BulkEntry {
  if (!isPlainObject(raw)) throw entryError(index, 'it must be an object');
  const unknown = Object.keys(raw).filter((k) => !['request_method', 'uri', 'payload', 'id'].includes(k));
  if (unknown.length > 0) throw entryError(index, `unknown field(s) ${unknown.map((k) => `"${k}"`).join(', ')}`);
  const method = typeof raw.request_method === 'string' ? raw.request_method.toUpperCase() : '';
  if (!(METHODS as readonly string[]).includes(method)) {
    throw entryError(index, `"request_method" must be one of ${METHODS.join(', ')}`);
  }
  if (typeof raw.uri !== 'string' || !/^\/api\/v3\/[^\s]*$/.test(raw.uri) || raw.uri.length > 2048) {
    throw entryError(index, '"uri" must be a relative path starting with /api/v3/');
  }
  const uri = requestTarget(raw.uri);
  if (uri === null) {
    throw entryError(index, '"uri" holds a control character, a broken %-escape or text that is not valid Unicode');
  }
  if (/^\/api\/v3\/+_bulk(?:[/?]|$)/.test(uri))
    throw entryError(index, 'a _bulk request cannot contain another _bulk request');
  const payload = raw.payload === undefined || raw.payload === null ? null : asObject(raw.payload);
  if (payload === undefined) throw entryError(index, '"payload" must be an object or null');
  const id = raw.id ?? null;
  if (id !== null && (typeof id !== 'string' || id === '' || id.length > 64)) {
    throw entryError(index, '"id" must be a non-empty string of at most 64 characters, or null');
  }
  return { method: method as BulkMethod, uri, payload, id };
}

/**
 * The entry's `uri` as an HTTP request target, or null when it cannot be one: control
 * characters and broken %-escapes are refused; other non-ASCII characters are sent
 * %-encoded as UTF-8, as a browser would (Node refuses them raw, and would have thrown
 * while the earlier entries had already run).
 */
function requestTarget(uri: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  if (/[\u0000-\u001f\u007f-\u009f]/.test(uri) || /%(?![0-9A-Fa-f]{2})/.test(uri)) return null;
  try {
    return uri.replace(/[^\u0021-\u007e]+/g, (text) => encodeURI(text));
  } catch {
    return null; // a lone surrogate: not Unicode text
  }
}

function entryError(index: number, problem: string): ApiError {
  return ApiError.badRequest(`Invalid _bulk entry ${index + 1}: ${problem}.`);
}
