import { ApiError } from 'src/core/envelope/api-error';
import { quoteClientText, singleQueryParam } from './query-param';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 500;

export interface Paging {
  offset: number;
  limit: number;
}

const DIGITS = /^\d+$/;

/**
 * Reads `?offset=&limit=` (SPEC "Paging"): offset >= 0 (default 0), limit 1..500
 * (default 10). Anything else, including a repeated parameter, is a 400 naming it.
 * An empty value (`limit=`) counts as absent.
 */
export function parsePaging(offset?: unknown, limit?: unknown): Paging {
  const parsedOffset = readInteger('offset', offset);
  const parsedLimit = readInteger('limit', limit);
  if (parsedOffset === null)
    throw ApiError.badRequest(`offset must be a non-negative integer (got ${describe(offset)}).`);
  if (parsedLimit === null || (parsedLimit !== undefined && (parsedLimit < 1 || parsedLimit > MAX_LIMIT))) {
    throw ApiError.badRequest(`limit must be an integer between 1 and ${MAX_LIMIT} (got ${describe(limit)}).`);
  }
  return { offset: parsedOffset ?? 0, limit: parsedLimit ?? DEFAULT_LIMIT };
}

/** undefined = absent; null = not a non-negative safe integer. */
function readInteger(name: string, value: unknown): number | undefined | null {
  const text = singleQueryParam(name, value)?.trim();
  if (text === undefined || text === '') return undefined;
  if (!DIGITS.test(text)) return null;
  const parsed = Number(text);
  return Number.isSafeInteger(parsed) ? parsed : null;
}

function describe(value: unknown): string {
  return quoteClientText(String(value));
}
