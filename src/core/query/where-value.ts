import { DateTime } from 'luxon';
import { ApiError } from 'src/core/envelope/api-error';
import { parseInputDatetime } from 'src/core/time/datetime-input';
import { FieldType } from './field-map';
import { quoteClientText } from './query-param';

/** What a where value is bound as. Decimals stay strings: money never becomes a JS float. */
export type BoundValue = string | number;

const INTEGER = /^[-+]?\d{1,16}$/;
/** Fits DECIMAL(65,30), the type decimal comparisons cast to (see where-clause.ts). */
const DECIMAL = /^[-+]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Turns a where value into what is bound for a field of `type`, or a 400 naming the field.
 * Datetimes are read as the API accepts them (account zone, or an explicit offset) and bound
 * as UTC text in the same shape TypeORM stores them (`YYYY-MM-DD HH:mm:ss.SSS`): on SQLite
 * datetimes are compared as text, so a value without the milliseconds would never be EQUAL.
 */
export function toBoundValue(fieldName: string, type: FieldType, raw: string, timezone: string): BoundValue {
  switch (type) {
    case 'string':
      return raw;
    case 'int': {
      const parsed = INTEGER.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(parsed)) throw invalid(fieldName, 'an integer', raw);
      return parsed;
    }
    case 'number':
      if (!DECIMAL.test(raw)) throw invalid(fieldName, 'a decimal number', raw);
      return raw;
    case 'bool': {
      const lower = raw.toLowerCase();
      if (lower === 'true' || lower === '1') return 1;
      if (lower === 'false' || lower === '0') return 0;
      throw invalid(fieldName, 'true, false, 1 or 0', raw);
    }
    case 'date':
      if (!DATE.test(raw) || !DateTime.fromFormat(raw, 'yyyy-MM-dd', { zone: 'utc' }).isValid) {
        throw invalid(fieldName, 'a date (YYYY-MM-DD)', raw);
      }
      return raw;
    case 'datetime': {
      const instant = parseInputDatetime(raw, timezone);
      if (!instant)
        throw invalid(fieldName, 'a datetime (YYYY-MM-DD, YYYY-MM-DD HH:mm:ss or YYYY-MM-DDTHH:mm:ss+hh:mm)', raw);
      return DateTime.fromJSDate(instant, { zone: 'utc' }).toFormat('yyyy-MM-dd HH:mm:ss.SSS');
    }
  }
}

function invalid(fieldName: string, expected: string, raw: string): ApiError {
  return ApiError.badRequest(
    `Invalid value for where field ${quoteClientText(fieldName)}: expected ${expected}, got ${quoteClientText(raw)}.`,
  );
}
