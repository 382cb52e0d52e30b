import Decimal from 'decimal.js';

/** Money arithmetic is decimal end to end, rounded half up (DESIGN §5). */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

export const ZERO = new Money(0);

export function toMoney(value: Decimal.Value | null | undefined): Decimal {
  return new Money(value ?? 0);
}

/** Rounds an amount to cents, half up. */
export function roundCents(value: Decimal): Decimal {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** JSON number for the wire; the decimal string is exact, Number() only formats it. */
export function moneyToJson(value: Decimal): number;
export function moneyToJson(value: Decimal | null | undefined): number | null;
export function moneyToJson(value: Decimal | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value.toString());
}

export function sumMoney(values: Iterable<Decimal>): Decimal {
  let total: Decimal = ZERO;
  for (const value of values) total = total.plus(value);
  return total;
}
