import Decimal from 'decimal.js';

/** A wire value as text for a document ('' for null and for anything that is not a scalar). */
export function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** Wire numbers are already rounded; Decimal keeps them exact from here on. */
export function decimalOf(value: unknown): Decimal {
  return new Decimal(text(value) || 0);
}
