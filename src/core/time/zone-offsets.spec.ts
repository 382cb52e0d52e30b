import { DateTime, IANAZone } from 'luxon';
import { zoneNamed } from './zone-offsets';

const ZONES = [
  'America/Chicago',
  'Europe/London',
  'Australia/Lord_Howe', // DST of 30 minutes
  'Pacific/Chatham', // +12:45 / +13:45
  'Asia/Kolkata',
  'America/Sao_Paulo', // DST until 2019
  'UTC',
];
const HOUR = 3_600_000;

/** A small seeded generator, so a failure names instants that can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Where `zone`'s offset changes between `from` and `until` (ms), to the millisecond (a day apart at least). */
function transitions(zone: IANAZone, from: number, until: number): number[] {
  const found: number[] = [];
  for (let t = from; t < until; t += 24 * HOUR) {
    if (zone.offset(t) === zone.offset(t + 24 * HOUR)) continue;
    let [lo, hi] = [t, t + 24 * HOUR]; // offset(lo) differs from offset(hi): find the first ms of the new one
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (zone.offset(mid) === zone.offset(lo)) lo = mid;
      else hi = mid;
    }
    found.push(hi);
  }
  return found;
}

describe('zoneNamed: luxon zones with offsets remembered per hour', () => {
  it.each(ZONES.filter((z) => z !== 'UTC'))('%s answers every instant as IANAZone does', (name) => {
    const zone = zoneNamed(name);
    const real = IANAZone.create(name);
    if (typeof zone === 'string') throw new Error(`${name} not wrapped`);
    const [from, until] = [Date.UTC(2015, 0, 1), Date.UTC(2031, 0, 1)];
    const edges = transitions(real, from, until);
    expect(edges.length).toBeGreaterThanOrEqual(name === 'Asia/Kolkata' ? 0 : 8);
    const instants: number[] = [];
    for (const t of edges) {
      for (const d of [
        -HOUR - 1,
        -HOUR,
        -HOUR + 1,
        -1001,
        -1000,
        -999,
        -1,
        0,
        1,
        999,
        1000,
        HOUR - 1,
        HOUR,
        HOUR + 1,
      ]) {
        instants.push(t + d);
      }
    }
    const next = random(name.length);
    for (let i = 0; i < 20_000; i++) instants.push(Math.floor(from + next() * (until - from)));
    // Hours before and after 1970 and far out, and the first and last ms of hours.
    for (let h = -50; h < 50; h++) instants.push(h * HOUR, h * HOUR - 1, Date.UTC(1890, 5, 1) + h * HOUR);
    // Asked twice: the first fills the memo, the second reads it.
    for (const pass of [1, 2]) {
      const wrong = instants.filter((t) => zone.offset(t) !== real.offset(t)).map((t) => [pass, new Date(t)]);
      expect(wrong).toEqual([]);
    }
  });

  it('builds the same DateTimes as the zone name across DST', () => {
    for (const name of ZONES) {
      const zone = zoneNamed(name);
      for (const iso of [
        '2024-03-10T02:30',
        '2024-11-03T01:30',
        '2024-10-06T02:15',
        '2024-04-07T01:45',
        '2019-11-03T00:30',
      ]) {
        const a = DateTime.fromISO(iso, { zone });
        const b = DateTime.fromISO(iso, { zone: name });
        expect([
          a.toISO(),
          a.plus({ months: 1 }).toISO(),
          a.plus({ days: 1 }).toMillis(),
          a.startOf('day').toMillis(),
        ]).toEqual([
          b.toISO(),
          b.plus({ months: 1 }).toISO(),
          b.plus({ days: 1 }).toMillis(),
          b.startOf('day').toMillis(),
        ]);
        expect([a.toFormat('ZZZZ ZZ'), a.zoneName, a.zone.equals(b.zone), b.zone.equals(a.zone)]).toEqual([
          b.toFormat('ZZZZ ZZ'),
          b.zoneName,
          true,
          true,
        ]);
      }
    }
  });

  it('gives back names luxon does not read as an IANA zone, so they behave as before', () => {
    expect(zoneNamed('UTC')).toBe('UTC');
    expect(zoneNamed('system')).toBe('system');
    expect(zoneNamed('UTC+3')).toBe('UTC+3');
    expect(zoneNamed('Not/AZone')).toBe('Not/AZone');
    expect(zoneNamed('Europe/London')).toBe(zoneNamed('Europe/London'));
  });
});
