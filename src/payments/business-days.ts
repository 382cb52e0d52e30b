import { DateTime } from 'luxon';

/** `from` plus `days` business days (Monday to Friday) in the account zone, same time of day. */
export function addBusinessDays(from: Date, days: number, timezone: string): Date {
  let cursor = DateTime.fromJSDate(from, { zone: timezone });
  let left = days;
  while (left > 0) {
    cursor = cursor.plus({ days: 1 });
    if (cursor.weekday <= 5) left--;
  }
  return cursor.toJSDate();
}
