import { DateTime } from 'luxon';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const OFFSET_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:?\d{2})$/;

/** Every date and datetime input lies in these years (in the account zone), DESIGN §4. */
export const INPUT_YEARS = { min: 1900, max: 2999 } as const;

/**
 * Parses the three accepted input forms (SPEC "Resources"): `YYYY-MM-DD` and
 * `YYYY-MM-DD HH:mm:ss` in the account zone, or ISO with an offset. Returns null for
 * anything else (the caller names the field in its 400).
 */
export function parseInputDatetime(raw: string, zone: string): Date | null {
  let parsed: DateTime | null = null;
  if (DATE_ONLY.test(raw)) parsed = DateTime.fromFormat(raw, 'yyyy-MM-dd', { zone });
  else if (LOCAL_DATETIME.test(raw)) parsed = DateTime.fromFormat(raw, 'yyyy-MM-dd HH:mm:ss', { zone });
  else if (OFFSET_DATETIME.test(raw)) parsed = DateTime.fromISO(raw, { setZone: true });
  if (!parsed?.isValid) return null;
  // Outside these years a due date can pass 9999 (SQLite) or a column's range (MariaDB).
  const year = parsed.setZone(zone).year;
  return year >= INPUT_YEARS.min && year <= INPUT_YEARS.max ? parsed.toJSDate() : null;
}

/** A calendar date `YYYY-MM-DD` (a datetime input is cut to its date in the account zone). */
export function parseInputDate(raw: string, zone: string): string | null {
  if (DATE_ONLY.test(raw)) {
    const date = DateTime.fromFormat(raw, 'yyyy-MM-dd');
    return date.isValid && date.year >= INPUT_YEARS.min && date.year <= INPUT_YEARS.max ? raw : null;
  }
  const instant = parseInputDatetime(raw, zone);
  return instant ? DateTime.fromJSDate(instant, { zone }).toISODate() : null;
}
