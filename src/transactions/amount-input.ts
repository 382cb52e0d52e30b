import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { parseDecimalInput } from 'src/core/money/decimal-input';

/** An amount from a client (a JSON number or numeric string like "42.50"): at most 2 decimals. */
export function parseAmount(value: unknown, field: string): Decimal {
  return parseDecimalInput(value, field, { decimals: 2 });
}

/** A payment, credit or refund amount: more than 0. */
export function parsePositiveAmount(value: unknown, field: string): Decimal {
  const amount = parseAmount(value, field);
  if (amount.lte(0)) throw ApiError.badRequest(`Field "${field}" must be more than 0.`);
  return amount;
}
