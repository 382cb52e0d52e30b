import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { Money } from './decimal';
import { AMOUNT_LIMIT, RATE_LIMIT } from './decimal.transformer';

/** Room past every limit, so a too-large number is told its limit rather than "not a number". */
const DECIMAL_TEXT = /^-?\d{1,15}(\.\d{1,9})?$/;

export interface DecimalInputOptions {
  /** Default: minus `max`. */
  min?: Decimal.Value;
  /** Default: AMOUNT_LIMIT for 2 decimals, RATE_LIMIT for more (what JSON renders exactly). */
  max?: Decimal.Value;
  /** Most decimal places kept by the column: 2 for AMOUNT, 6 (the default) for RATE. */
  decimals?: number;
}

/**
 * Reads a client number (a JSON number or a numeric string such as "800", as the
 * recorded traffic sends) into a decimal, never through float arithmetic: a JSON
 * number is read from its shortest decimal text. Anything else is a 400 naming `field`.
 * More decimals than the column keeps is a 400 too, not a silent rounding.
 */
export function parseDecimalInput(value: unknown, field: string, opts: DecimalInputOptions = {}): Decimal {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !DECIMAL_TEXT.test(text.trim())) {
    throw ApiError.badRequest(`Invalid field "${field}": must be a number.`);
  }
  const parsed = new Money(text.trim());
  const decimals = opts.decimals ?? 6;
  if (parsed.decimalPlaces() > decimals) {
    throw ApiError.badRequest(`Invalid field "${field}": at most ${decimals} decimals.`);
  }
  const max = new Money(opts.max ?? (decimals <= 2 ? AMOUNT_LIMIT : RATE_LIMIT));
  const min = new Money(opts.min ?? max.negated());
  if (parsed.lt(min)) {
    throw ApiError.badRequest(`Invalid field "${field}": must not be less than ${min.toString()}.`);
  }
  if (parsed.gt(max)) {
    throw ApiError.badRequest(`Invalid field "${field}": must not be more than ${max.toString()}.`);
  }
  return parsed;
}
