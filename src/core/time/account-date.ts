import { DateTime } from 'luxon';
import { zoneNamed } from './zone-offsets';

/** The calendar date (`YYYY-MM-DD`) of an instant in the account's zone: "today" for billing. */
export function accountDate(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone: zoneNamed(zone) }).toISODate() as string;
}

/** The account day `accountToday` answered last: its date, zone and the instants it spans. */
let today: { zone: string; from: number; until: number; date: string } | null = null;

/**
 * `accountDate` for "now", remembered until the day ends: reads derive statuses as of today
 * on every request, and luxon's zone arithmetic was about 15 µs of a customer read.
 */
export function accountToday(now: Date, zone: string): string {
  const ms = now.getTime();
  if (today !== null && today.zone === zone && ms >= today.from && ms < today.until) return today.date;
  const local = DateTime.fromJSDate(now, { zone: zoneNamed(zone) });
  const start = local.startOf('day');
  today = {
    zone,
    from: start.toMillis(),
    until: start.plus({ days: 1 }).toMillis(),
    date: local.toISODate() as string,
  };
  return today.date;
}

/** `date` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const day = plainDay(date);
  if (day !== null && Number.isInteger(days)) {
    const sum = new Date(day + days * DAY_MS).toISOString().slice(0, 10);
    if (/^\d{4}-/.test(sum)) return sum;
  }
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() as string;
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [start, end] = [plainDay(from), plainDay(to)];
  if (start !== null && end !== null) return Math.round((end - start) / DAY_MS);
  return Math.round(DateTime.fromISO(to, { zone: 'UTC' }).diff(DateTime.fromISO(from, { zone: 'UTC' }), 'days').days);
}

const DAY_MS = 86_400_000;

/** plainDay's answers by date: a run presents thousands of invoices over a few dates. */
const plainDays = new Map<string, number | null>();
const PLAIN_DAYS_KEPT = 4096;

/**
 * A plain `YYYY-MM-DD` as its UTC midnight in ms, else null. Invoice figures take days
 * between dates for every invoice presented (billing runs present thousands); this skips
 * luxon for the plain case, which is arithmetic on UTC days, and remembers the answer
 * (the check parses and formats the date again).
 */
function plainDay(date: string): number | null {
  let day = plainDays.get(date);
  if (day === undefined) {
    day = parsePlainDay(date);
    if (plainDays.size >= PLAIN_DAYS_KEPT) plainDays.clear();
    plainDays.set(date, day);
  }
  return day;
}

function parsePlainDay(date: string): number | null {
  if (date.length !== 10 || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const ms = Date.parse(date);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date ? null : ms;
}

/** The first instant of the account date after the one `instant` falls on (its next midnight). */
export function nextAccountMidnight(instant: Date, zone: string): Date {
  return DateTime.fromJSDate(instant, { zone: zoneNamed(zone) })
    .startOf('day')
    .plus({ days: 1 })
    .toJSDate();
}

/** The first instant of an account date (its midnight in the account's zone). */
export function accountMidnight(date: string, zone: string): Date {
  return DateTime.fromISO(date, { zone: zoneNamed(zone) })
    .startOf('day')
    .toJSDate();
}

/** An account date (YYYY-MM-DD) as an SQL literal; anything else throws (it is never client text). */
export function accountDateSql(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`Bad account date: ${date}`);
  return `'${date}'`;
}
