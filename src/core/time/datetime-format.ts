import { Info, Zone } from 'luxon';
import { DatetimeFormat } from 'src/config/app-config';
import { zoneNamed } from './zone-offsets';

/**
 * Renders stored UTC instants in the account's zone and format (DESIGN §3, §4).
 *
 * Lists render many datetimes per row, so the text is built from the instant shifted by
 * the zone's offset (remembered per hour, zone-offsets.ts) rather than from a zoned Luxon
 * DateTime for every value.
 */
export class DatetimeRenderer {
  private readonly zone: Zone;
  private readonly isUtc: boolean;

  constructor(
    zoneName: string,
    private readonly format: DatetimeFormat,
  ) {
    const named = zoneNamed(zoneName);
    // UTC and fixed offsets come back as names: luxon's own zones for them compute nothing.
    this.zone = typeof named === 'string' ? Info.normalizeZone(named) : named;
    // As Luxon does: the zone named UTC (or GMT) prints `Z`, other zero-offset zones `+00:00`.
    this.isUtc = ['utc', 'gmt'].includes(zoneName.toLowerCase());
  }

  datetime(value: Date | null | undefined): string | null {
    if (!value) return null;
    const ms = value.getTime();
    const offset = this.offsetMinutes(ms);
    const local = new Date(ms + offset * 60_000);
    const wall = `${dateOf(local)}${this.format === 'sql' ? ' ' : 'T'}${timeOf(local)}`;
    if (this.format === 'sql') return wall;
    return wall + (this.isUtc ? 'Z' : offsetText(offset));
  }

  /** A calendar date (`YYYY-MM-DD`) stored as a string stays as it is. */
  date(value: string | Date | null | undefined): string | null {
    if (!value) return null;
    if (typeof value === 'string') return value.slice(0, 10);
    const ms = value.getTime();
    return dateOf(new Date(ms + this.offsetMinutes(ms) * 60_000));
  }

  private offsetMinutes(ms: number): number {
    return this.zone.offset(ms);
  }
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `YYYY-MM-DD` of a Date whose UTC fields hold the wall time. */
function dateOf(local: Date): string {
  return `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
}

/** `HH:mm:ss` (milliseconds truncated) of a Date whose UTC fields hold the wall time. */
function timeOf(local: Date): string {
  return `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
}

/** `-06:00`, `+05:45`. */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
