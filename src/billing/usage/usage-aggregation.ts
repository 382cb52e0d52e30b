import Decimal from 'decimal.js';
import { Money, ZERO } from 'src/core/money/decimal';

/** How a metered line's values combine over a cycle (SPEC "Usage"). */
export const USAGE_TYPES = ['add', 'max', 'lat'] as const;
export type UsageType = (typeof USAGE_TYPES)[number];

/** Rounding applied after combining: `ceil` up to an integer, `round` to the nearest (halves up). */
export const USAGE_OPTIONS = ['ceil', 'round'] as const;
export type UsageOption = (typeof USAGE_OPTIONS)[number];

export interface UsageValue {
  value: Decimal;
  type: UsageType;
  options: readonly UsageOption[];
  /** When it was received: `lat` bills the latest, and the latest record's type and options rule the cycle. */
  receivedAt: Date;
  /** Ties on `receivedAt` are broken by the order of arrival (the record id). */
  sequence: number;
}

/**
 * The usage of one line over one cycle. The most recent record decides the type and the
 * rounding (a client that changes how it reports does so from then on); no record is 0.
 */
export function aggregateUsage(values: readonly UsageValue[]): Decimal {
  if (values.length === 0) return ZERO;
  const ordered = [...values].sort(
    (a, b) => a.receivedAt.getTime() - b.receivedAt.getTime() || a.sequence - b.sequence,
  );
  const latest = ordered[ordered.length - 1];
  let total: Decimal;
  if (latest.type === 'lat') total = latest.value;
  else if (latest.type === 'max') total = Money.max(...ordered.map((v) => v.value));
  else total = ordered.reduce((sum, v) => sum.plus(v.value), ZERO);
  if (latest.options.includes('ceil')) total = total.ceil();
  if (latest.options.includes('round')) total = total.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  return total;
}
