import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { Money } from 'src/core/money/decimal';

const AMOUNT_TEXT = /^-?\d{1,13}(\.\d{1,2})?$/;

/**
 * An amount from a client (a JSON number or numeric string like "42.50", as recorded),
 * read from its decimal text, never through float arithmetic; at most 2 decimals.
 */
export function parseAmount(value: unknown, field: string): Decimal {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !AMOUNT_TEXT.test(text.trim())) {
    throw ApiError.badRequest(`Field "${field}" must be an amount (a number with at most 2 decimals).`);
  }
  return new Money(text.trim());
}

/** A payment, credit or refund amount: more than 0. */
export function parsePositiveAmount(value: unknown, field: string): Decimal {
  const amount = parseAmount(value, field);
  if (amount.lte(0)) throw ApiError.badRequest(`Field "${field}" must be more than 0.`);
  return amount;
}
