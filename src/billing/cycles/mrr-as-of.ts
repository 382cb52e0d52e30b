import Decimal from 'decimal.js';
import { roundCents, sumMoney, ZERO } from 'src/core/money/decimal';
import { monthlyValue } from './recurring-revenue';

/**
 * A subscription line as the MRR rule sees it (DESIGN §6 "MRR/ARR"). `recurring` is false
 * for metered lines and one-time (paycycle `one`) prices; `price` is its amount per cycle,
 * given the subtotal of the other counted lines (a percent discount needs it; other lines
 * ignore it). Setup amounts are never part of it.
 */
export interface MrrLine {
  recurring: boolean;
  isDiscount: boolean;
  price: (otherLinesSubtotal: Decimal) => Decimal;
  subscribe: Date;
  cancel: Date | null;
  expire: Date | null;
  /** subscribe + trial_days; the line counts zero before it. */
  trialEnd: Date | null;
  /** Still free by its item's `trial_recurs` (first N invoices), as of the facts read. */
  inTrialInvoices: boolean;
  /** Billed on all its `expire_recurs` invoices, as of the facts read. */
  expiredByCount: boolean;
}

/** A subscription as the MRR rule sees it. */
export interface MrrSubscription {
  paycycle: string;
  /** The cycle anchor: nothing counts before it (a hold at creation moves it). */
  start: Date;
  /** When a cancellation takes effect (null: not cancelled). */
  cancelAt: Date | null;
  /** Stored as expired. */
  expired: boolean;
  suspendFrom: Date | null;
  suspendTo: Date | null;
  lines: MrrLine[];
}

const before = (d: Date | null, at: Date): boolean => d !== null && d.getTime() <= at.getTime();

/**
 * The subscription's MRR at `at`, to the cent: its recurring lines live at that moment and
 * out of trial, at their price per cycle converted to a month; zero before it starts, once
 * cancelled or expired, and while suspended.
 */
export function mrrAsOf(sub: MrrSubscription, at: Date): Decimal {
  if (sub.start.getTime() > at.getTime() || sub.expired || before(sub.cancelAt, at)) return ZERO;
  if (before(sub.suspendFrom, at) && !before(sub.suspendTo, at)) return ZERO;
  const live = sub.lines.filter(
    (l) =>
      l.recurring &&
      before(l.subscribe, at) &&
      !before(l.cancel, at) &&
      !before(l.expire, at) &&
      !l.expiredByCount &&
      !l.inTrialInvoices &&
      !(l.trialEnd !== null && l.trialEnd.getTime() > at.getTime()),
  );
  const charges = sumMoney(live.filter((l) => !l.isDiscount).map((l) => l.price(ZERO)));
  const discounts = sumMoney(live.filter((l) => l.isDiscount).map((l) => l.price(charges)));
  return roundCents(monthlyValue(charges.plus(discounts), sub.paycycle));
}

/** Every moment at which the rule's answer can change by time alone, in order. */
export function mrrMoments(sub: MrrSubscription): Date[] {
  const moments = [sub.start, sub.cancelAt, sub.suspendFrom, sub.suspendTo];
  for (const l of sub.lines) moments.push(l.subscribe, l.cancel, l.expire, l.trialEnd);
  const times = [...new Set(moments.flatMap((d) => (d === null ? [] : [d.getTime()])))].sort((a, b) => a - b);
  return times.map((t) => new Date(t));
}
