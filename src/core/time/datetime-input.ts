import { DateTime } from 'luxon';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const LOCAL_DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const OFFSET_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:?\d{2})$/;

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
  return parsed?.isValid ? parsed.toJSDate() : null;
}

/** A calendar date `YYYY-MM-DD` (a datetime input is cut to its date in the account zone). */
export function parseInputDate(raw: string, zone: string): string | null {
  if (DATE_ONLY.test(raw)) {
    return DateTime.fromFormat(raw, 'yyyy-MM-dd').isValid ? raw : null;
  }
  const instant = parseInputDatetime(raw, zone);
  return instant ? DateTime.fromJSDate(instant, { zone }).toISODate() : null;
}
