import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { Money } from './decimal';

const DECIMAL_TEXT = /^-?\d{1,12}(\.\d{1,9})?$/;

export interface DecimalInputOptions {
  min?: Decimal.Value;
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
  if (opts.min !== undefined && parsed.lt(opts.min)) {
    throw ApiError.badRequest(`Invalid field "${field}": must not be less than ${new Money(opts.min).toString()}.`);
  }
  if (opts.max !== undefined && parsed.gt(opts.max)) {
    throw ApiError.badRequest(`Invalid field "${field}": must not be more than ${new Money(opts.max).toString()}.`);
  }
  return parsed;
}
