import { ApiError } from 'src/core/envelope/api-error';

const MAX_ECHO = 60;

/**
 * Reads one raw query parameter. Express hands us a string, but a repeated parameter
 * arrives as an array and `a[b]=c` as an object: those are ambiguous, so they are 400s.
 */
export function singleQueryParam(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) throw ApiError.badRequest(`The query parameter ${name} must be given only once.`);
  throw ApiError.badRequest(`The query parameter ${name} must be a plain string.`);
}

/** Client text quoted for an error message: JSON-escaped and cut short, so messages stay readable. */
export function quoteClientText(text: string): string {
  return JSON.stringify(text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}...` : text);
}
