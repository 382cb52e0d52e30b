import { IANAZone, Info, Zone, ZoneOffsetFormat, ZoneOffsetOptions } from 'luxon';

const HOUR_MS = 3_600_000;
/** Hours remembered per zone before the memo starts over: about 7.5 years of distinct hours. */
const MAX_HOURS = 65_536;

/**
 * An IANA zone whose offsets are remembered per UTC hour. luxon asks the zone for an offset
 * on every zoned DateTime and every calendar step (Intl `formatToParts`, a few µs each), and a
 * billing run asks for the same few hours thousands of times.
 *
 * The rule: the offset at the first and the last millisecond of an hour are computed; if they
 * are equal, every instant of that hour has that offset, because tzdb never puts two offset
 * changes within one hour of each other (the closest pair in the TZif files of tzdata 2025b
 * is four days apart: Africa/Freetown, 1939). If they differ, the hour holds a transition and each
 * instant of it is asked of the real zone. The answers are then exactly the real zone's.
 *
 * It presents itself to luxon as the IANA zone it wraps (type `iana`, same name, equal to it),
 * so formatting and comparison behave as with `IANAZone`.
 */
class MemoisedZone extends Zone {
  /** Offset in minutes by UTC hour (ms / HOUR_MS); NaN marks an hour that holds a transition. */
  private readonly hours = new Map<number, number>();

  constructor(private readonly zone: Zone) {
    super();
  }

  override get type(): string {
    return this.zone.type;
  }

  override get name(): string {
    return this.zone.name;
  }

  override get isUniversal(): boolean {
    return this.zone.isUniversal;
  }

  override get isValid(): boolean {
    return this.zone.isValid;
  }

  override offsetName(ts: number, options: ZoneOffsetOptions): string | null {
    return this.zone.offsetName(ts, options);
  }

  override formatOffset(ts: number, format: ZoneOffsetFormat): string {
    return this.zone.formatOffset(ts, format);
  }

  override equals(other: Zone): boolean {
    return this.zone.equals(other);
  }

  override offset(ts: number): number {
    const hour = Math.floor(ts / HOUR_MS);
    let offset = this.hours.get(hour);
    if (offset === undefined) {
      if (!Number.isFinite(hour)) return this.zone.offset(ts);
      const first = this.zone.offset(hour * HOUR_MS);
      offset = first === this.zone.offset(hour * HOUR_MS + HOUR_MS - 1) ? first : NaN;
      if (this.hours.size >= MAX_HOURS) this.hours.clear();
      this.hours.set(hour, offset);
    }
    return Number.isNaN(offset) ? this.zone.offset(ts) : offset;
  }
}

const zones = new Map<string, Zone>();

/**
 * The zone to build zoned DateTimes with for an account zone name (`{ zone: zoneNamed(name) }`):
 * for an IANA zone the same offsets as luxon's own, remembered. Any other name (`UTC`, a fixed
 * offset, `system`, an invalid one) is given back as is, so luxon treats it as it always did.
 */
export function zoneNamed(name: string): Zone | string {
  let zone = zones.get(name);
  if (zone === undefined) {
    const normal = Info.normalizeZone(name);
    if (!(normal instanceof IANAZone) || !normal.isValid) return name;
    zone = new MemoisedZone(normal);
    zones.set(name, zone);
  }
  return zone;
}
