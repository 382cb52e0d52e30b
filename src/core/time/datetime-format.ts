import { DateTime } from 'luxon';
import { DatetimeFormat } from 'src/config/app-config';

/** Renders stored UTC instants in the account's zone and format (DESIGN §3, §4). */
export class DatetimeRenderer {
  constructor(
    private readonly zone: string,
    private readonly format: DatetimeFormat,
  ) {}

  datetime(value: Date | null | undefined): string | null {
    if (!value) return null;
    const local = DateTime.fromJSDate(value, { zone: this.zone }).startOf('second');
    return this.format === 'sql' ? local.toFormat('yyyy-MM-dd HH:mm:ss') : local.toISO({ suppressMilliseconds: true });
  }

  /** A calendar date (`YYYY-MM-DD`) stored as a string stays as it is. */
  date(value: string | Date | null | undefined): string | null {
    if (!value) return null;
    if (typeof value === 'string') return value.slice(0, 10);
    return DateTime.fromJSDate(value, { zone: this.zone }).toISODate();
  }
}
