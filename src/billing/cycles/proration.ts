import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { Money, roundCents } from 'src/core/money/decimal';
import { zoneNamed } from 'src/core/time/zone-offsets';
import { Cycle } from './cycle-calendar';

/** Proration fractions keep 9 places, half up (DESIGN §5). */
export const FRACTION_PLACES = 9;

/**
 * The part of `cycle` left from `change` to its end (DESIGN §6 "Cycle and proration
 * rules"): whole days from the change to the cycle end ÷ whole days in the cycle, both
 * counted as calendar dates of the account zone, 9 places half up. A change on the first
 * day of the cycle leaves 1; one at or after the end leaves 0.
 */
export function prorationFraction(cycle: Cycle, change: Date, zone: string): Decimal {
  const total = calendarDays(cycle.start, cycle.end, zone);
  const from = change < cycle.start ? cycle.start : change;
  const left = Math.max(0, calendarDays(from, cycle.end, zone));
  if (total <= 0) return new Money(0);
  return new Money(left).div(total).toDecimalPlaces(FRACTION_PLACES, Decimal.ROUND_HALF_UP);
}

/**
 * Whether a line's price is prorated on a change mid-cycle: only a recurring price billed
 * in advance. A metered line is billed in arrears on its usage, so there is nothing billed
 * ahead to credit nor a price per cycle to charge; a one-time price is billed once, in
 * full, on the line's first invoice (DESIGN §6).
 */
export function isProrated(line: { metered: boolean; tiersetPaycycle: string | null | undefined }): boolean {
  return !line.metered && line.tiersetPaycycle !== 'one';
}

/** A price for the prorated part of a cycle: price × fraction, rounded once to cents. */
export function proratedAmount(price: Decimal, fraction: Decimal): Decimal {
  return roundCents(new Money(price).times(fraction));
}

/** Whole calendar days between the dates (in `zone`) of two instants. */
function calendarDays(from: Date, to: Date, zone: string): number {
  const a = DateTime.fromJSDate(from, { zone: zoneNamed(zone) }).startOf('day');
  const b = DateTime.fromJSDate(to, { zone: zoneNamed(zone) }).startOf('day');
  return Math.round(b.diff(a, 'days').days);
}
