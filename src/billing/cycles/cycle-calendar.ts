import { DateTime } from 'luxon';
import { cycleLength } from './cycle-length';

/** One billing cycle: [start, end), and its number k counted from the anchor (0 = the first). */
export interface Cycle {
  index: number;
  start: Date;
  end: Date;
}

/**
 * Start of cycle `k` of a subscription anchored at `anchor` (DESIGN §6 "Cycle and
 * proration rules"). Always computed from the anchor, never from the previous cycle, so a
 * month end clamps and then returns (Jan 31, Feb 28, Mar 31). Months and days are
 * calendar units of the account zone: the local time of day is kept across DST.
 */
export function cycleStart(anchor: Date, paycycle: string, k: number, zone: string): Date {
  const local = DateTime.fromJSDate(anchor, { zone });
  const length = cycleLength(paycycle);
  switch (length.kind) {
    case 'months':
      return local.plus({ months: length.months * k }).toJSDate();
    case 'days':
      return local.plus({ days: length.days * k }).toJSDate();
    case 'semimonthly':
      return semimonthlyStart(local, k).toJSDate();
    case 'none':
      throw new Error(`Paycycle "${paycycle}" has no cycles`);
  }
}

/** The cycle that holds `at` (the first one when `at` is before the anchor). */
export function cycleAt(anchor: Date, paycycle: string, at: Date, zone: string): Cycle {
  let k = Math.max(0, estimateIndex(anchor, paycycle, at, zone));
  while (k > 0 && cycleStart(anchor, paycycle, k, zone) > at) k--;
  while (cycleStart(anchor, paycycle, k + 1, zone) <= at) k++;
  return cycleNumber(anchor, paycycle, k, zone);
}

/** Cycle number `k` with its bounds. */
export function cycleNumber(anchor: Date, paycycle: string, k: number, zone: string): Cycle {
  return { index: k, start: cycleStart(anchor, paycycle, k, zone), end: cycleStart(anchor, paycycle, k + 1, zone) };
}

/**
 * The first cycle start on or after `at`: where billing resumes after a suspension or a
 * hold, so the cycles in between are never billed (no back-billing).
 */
export function firstCycleStartOnOrAfter(anchor: Date, paycycle: string, at: Date, zone: string): Date {
  if (at <= anchor) return anchor;
  const cycle = cycleAt(anchor, paycycle, at, zone);
  return cycle.start.getTime() === at.getTime() ? cycle.start : cycle.end;
}

/** A lower bound on the index of the cycle holding `at`, so the search above takes a step or two. */
function estimateIndex(anchor: Date, paycycle: string, at: Date, zone: string): number {
  const from = DateTime.fromJSDate(anchor, { zone });
  const to = DateTime.fromJSDate(at, { zone });
  const length = cycleLength(paycycle);
  switch (length.kind) {
    case 'months':
      return Math.floor(to.diff(from, 'months').months / length.months) - 1;
    case 'days':
      return Math.floor(to.diff(from, 'days').days / length.days) - 1;
    case 'semimonthly':
      return Math.floor(to.diff(from, 'months').months) * 2 - 2;
    case 'none':
      throw new Error(`Paycycle "${paycycle}" has no cycles`);
  }
}

/**
 * `116`: the first cycle runs from the anchor to the next 1st or 16th; every later one
 * from a 1st to the 16th or from a 16th to the next 1st, at the anchor's time of day.
 */
function semimonthlyStart(anchor: DateTime, k: number): DateTime {
  if (k === 0) return anchor;
  // Boundaries counted from the month of the anchor: 2m is its 1st, 2m+1 its 16th.
  const firstAfter = anchor.day < 16 ? 1 : 2;
  const n = firstAfter + (k - 1);
  const month = anchor.startOf('month').plus({ months: Math.floor(n / 2) });
  const day = n % 2 === 0 ? 1 : 16;
  return month.set({ day, hour: anchor.hour, minute: anchor.minute, second: anchor.second });
}
