import { ApiError } from 'src/core/envelope/api-error';
import { quoteClientText } from './query-param';

export type SortDirection = 'ASC' | 'DESC';

export interface OrderTerm {
  field: string;
  dir: SortDirection;
}

/** Far more than any real sort; bounds the ORDER BY one request can make us build. */
export const MAX_ORDER_TERMS = 20;

/**
 * Parses `?order=field:ASC,other:DESC`. The direction is case-insensitive and defaults
 * to ASC when left out. Field names never contain `:` or `,`, so there is no escaping.
 */
export function parseOrder(raw: string | undefined): OrderTerm[] {
  if (raw === undefined) return [];
  const terms = raw
    .split(',')
    .map((term) => term.trim())
    .filter((term) => term !== '');
  if (terms.length > MAX_ORDER_TERMS) {
    throw ApiError.badRequest(`Too many order terms: at most ${MAX_ORDER_TERMS} are allowed.`);
  }
  return terms.map(toTerm);
}

function toTerm(term: string): OrderTerm {
  const parts = term.split(':').map((part) => part.trim());
  if (parts.length > 2 || parts[0] === '') {
    throw ApiError.badRequest(`Malformed order term ${quoteClientText(term)}: expected <field>:ASC or <field>:DESC.`);
  }
  const dir = (parts[1] ?? 'ASC').toUpperCase();
  if (dir !== 'ASC' && dir !== 'DESC') {
    throw ApiError.badRequest(`Invalid sort direction in order: ${quoteClientText(parts[1])}. Use ASC or DESC.`);
  }
  return { field: parts[0], dir };
}
