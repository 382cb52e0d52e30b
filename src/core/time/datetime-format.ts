import { IANAZone } from 'luxon';
import { DatetimeFormat } from 'src/config/app-config';

/** Every zone's offset changes only on a quarter-hour of UTC (e.g. +05:45 zones switch at :15). */
const SLOT_MS = 15 * 60 * 1000;
/** Bounds the offset cache (one entry per quarter-hour rendered: about 3.5 days of spread). */
const MAX_CACHED_SLOTS = 336;

/**
 * Renders stored UTC instants in the account's zone and format (DESIGN §3, §4).
 *
 * Lists render many datetimes per row, so the zone's offset is looked up once per
 * quarter-hour of UTC and cached, and the text is built from the shifted instant, rather
 * than building a zoned Luxon DateTime for every value.
 */
export class DatetimeRenderer {
  private readonly zone: IANAZone;
  private readonly isUtc: boolean;
  private readonly offsets = new Map<number, number>();

  constructor(
    zoneName: string,
    private readonly format: DatetimeFormat,
  ) {
    this.zone = IANAZone.create(zoneName);
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
    const slot = Math.floor(ms / SLOT_MS);
    let offset = this.offsets.get(slot);
    if (offset === undefined) {
      offset = this.zone.offset(slot * SLOT_MS);
      if (this.offsets.size >= MAX_CACHED_SLOTS) this.offsets.clear();
      this.offsets.set(slot, offset);
    }
    return offset;
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
