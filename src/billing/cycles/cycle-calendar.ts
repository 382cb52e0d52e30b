import { DateTime } from 'luxon';
import { zoneNamed } from 'src/core/time/zone-offsets';
import { CycleLength, cycleLength } from './cycle-length';

/** One billing cycle: [start, end), and its number k counted from the anchor (0 = the first). */
export interface Cycle {
  index: number;
  start: Date;
  end: Date;
}

/** A subscription's calendar: its anchor in the account zone and its cycle length, read once. */
interface Calendar {
  anchor: DateTime;
  length: CycleLength;
  paycycle: string;
}

function calendarOf(anchor: Date, paycycle: string, zone: string): Calendar {
  return { anchor: DateTime.fromJSDate(anchor, { zone: zoneNamed(zone) }), length: cycleLength(paycycle), paycycle };
}

/**
 * Start of cycle `k` of a subscription anchored at `anchor` (DESIGN §6 "Cycle and
 * proration rules"). Always computed from the anchor, never from the previous cycle, so a
 * month end clamps and then returns (Jan 31, Feb 28, Mar 31). Months and days are
 * calendar units of the account zone: the local time of day is kept across DST.
 */
export function cycleStart(anchor: Date, paycycle: string, k: number, zone: string): Date {
  return startOf(calendarOf(anchor, paycycle, zone), k);
}

function startOf({ anchor, length, paycycle }: Calendar, k: number): Date {
  switch (length.kind) {
    case 'months':
      return anchor.plus({ months: length.months * k }).toJSDate();
    case 'days':
      return anchor.plus({ days: length.days * k }).toJSDate();
    case 'semimonthly':
      return semimonthlyStart(anchor, k).toJSDate();
    case 'none':
      throw new Error(`Paycycle "${paycycle}" has no cycles`);
  }
}

/**
 * The cycle that holds `at` (the first one when `at` is before the anchor). Starts grow
 * with k, so the search from an estimate steps to the one k with start ≤ at < end; each
 * start it computes is computed once and becomes a bound of the answer.
 */
export function cycleAt(anchor: Date, paycycle: string, at: Date, zone: string): Cycle {
  const calendar = calendarOf(anchor, paycycle, zone);
  let k = Math.max(0, estimateIndex(calendar, at));
  let start = startOf(calendar, k);
  while (k > 0 && start > at) start = startOf(calendar, --k);
  let end = startOf(calendar, k + 1);
  while (end <= at) {
    k++;
    start = end;
    end = startOf(calendar, k + 1);
  }
  return { index: k, start, end };
}

/** Cycle number `k` with its bounds. */
export function cycleNumber(anchor: Date, paycycle: string, k: number, zone: string): Cycle {
  const calendar = calendarOf(anchor, paycycle, zone);
  return { index: k, start: startOf(calendar, k), end: startOf(calendar, k + 1) };
}

/**
 * The cycle before `cycle` (null before the first), as `cycleNumber(.., cycle.index - 1, ..)`:
 * it ends where `cycle` starts, so only its start is computed.
 */
export function cycleBefore(anchor: Date, paycycle: string, cycle: Cycle, zone: string): Cycle | null {
  if (cycle.index === 0) return null;
  return { index: cycle.index - 1, start: cycleStart(anchor, paycycle, cycle.index - 1, zone), end: cycle.start };
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

/**
 * The index of the cycle holding `at`, read off the local calendar fields (exact but for a
 * time of day moved by a DST gap): the search in `cycleAt` then takes no step, or one.
 */
function estimateIndex({ anchor, length, paycycle }: Calendar, at: Date): number {
  const to = DateTime.fromJSDate(at, { zone: anchor.zone });
  const months = (to.year - anchor.year) * 12 + (to.month - anchor.month);
  switch (length.kind) {
    case 'months': {
      // A start on a day the month lacks clamps to the month's last day.
      const day = Math.min(anchor.day, to.daysInMonth ?? anchor.day);
      const beforeStart = to.day < day || (to.day === day && timeOfDay(to) < timeOfDay(anchor));
      return Math.floor((months - (beforeStart ? 1 : 0)) / length.months);
    }
    case 'days': {
      const days = Math.round(
        (Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(anchor.year, anchor.month - 1, anchor.day)) / DAY_MS,
      );
      return Math.floor((days - (timeOfDay(to) < timeOfDay(anchor) ? 1 : 0)) / length.days);
    }
    case 'semimonthly': {
      // Boundary n of the anchor's month count (2m its 1st, 2m+1 its 16th) last passed by `at`.
      const onBoundaryDay = to.day === 1 || to.day === 16;
      const n = 2 * months + (to.day >= 16 ? 1 : 0) - (onBoundaryDay && timeOfDay(to) < timeOfDay(anchor) ? 1 : 0);
      return n - (anchor.day < 16 ? 1 : 2) + 1;
    }
    case 'none':
      throw new Error(`Paycycle "${paycycle}" has no cycles`);
  }
}

const DAY_MS = 86_400_000;

function timeOfDay(t: DateTime): number {
  return ((t.hour * 60 + t.minute) * 60 + t.second) * 1000 + t.millisecond;
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
