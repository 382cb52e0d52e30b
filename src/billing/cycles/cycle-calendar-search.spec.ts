import { DateTime } from 'luxon';
import { cycleAt, cycleBefore, cycleNumber, firstCycleStartOnOrAfter } from './cycle-calendar';
import { cycleLength, RECURRING_PAYCYCLES } from './cycle-length';

/**
 * The calendar as it was before its search reused the starts it found and its zones
 * remembered offsets (DateTimes of the zone name): the calendar must answer as it does.
 */
const reference = {
  start(anchor: Date, paycycle: string, k: number, zone: string): Date {
    const local = DateTime.fromJSDate(anchor, { zone });
    const length = cycleLength(paycycle);
    if (length.kind === 'months') return local.plus({ months: length.months * k }).toJSDate();
    if (length.kind === 'days') return local.plus({ days: length.days * k }).toJSDate();
    if (k === 0) return local.toJSDate();
    const n = (local.day < 16 ? 1 : 2) + (k - 1);
    const month = local.startOf('month').plus({ months: Math.floor(n / 2) });
    const day = n % 2 === 0 ? 1 : 16;
    return month.set({ day, hour: local.hour, minute: local.minute, second: local.second }).toJSDate();
  },
  /** The search as it was: a lower-bound estimate from luxon's diff, then steps. */
  at(anchor: Date, paycycle: string, at: Date, zone: string): { index: number; start: Date; end: Date } {
    const [from, to] = [DateTime.fromJSDate(anchor, { zone }), DateTime.fromJSDate(at, { zone })];
    const length = cycleLength(paycycle);
    const estimate =
      length.kind === 'months'
        ? Math.floor(to.diff(from, 'months').months / length.months) - 1
        : length.kind === 'days'
          ? Math.floor(to.diff(from, 'days').days / length.days) - 1
          : Math.floor(to.diff(from, 'months').months) * 2 - 2;
    let k = Math.max(0, estimate);
    while (k > 0 && reference.start(anchor, paycycle, k, zone) > at) k--;
    while (reference.start(anchor, paycycle, k + 1, zone) <= at) k++;
    return reference.number(anchor, paycycle, k, zone);
  },
  number(anchor: Date, paycycle: string, k: number, zone: string): { index: number; start: Date; end: Date } {
    return {
      index: k,
      start: reference.start(anchor, paycycle, k, zone),
      end: reference.start(anchor, paycycle, k + 1, zone),
    };
  },
};

const ZONES = [
  'America/Chicago',
  'Europe/London',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Asia/Kolkata',
  'America/Sao_Paulo',
  'UTC',
];

/** Anchors at month ends, the 1st, 15th and 16th, and at local times DST skips or repeats. */
const ANCHORS = [
  '2024-01-31T09:00',
  '2024-02-29T23:30',
  '2023-03-30T00:15',
  '2024-03-10T02:30', // Chicago: skipped
  '2024-11-03T01:30', // Chicago: repeated
  '2024-03-31T01:30', // London: skipped
  '2024-10-06T02:15', // Lord Howe: skipped (30 minutes)
  '2024-09-29T02:45', // Chatham: skipped
  '2018-11-04T00:30', // Sao Paulo: skipped (midnight)
  '2024-01-15T12:00',
  '2024-01-16T00:00',
  '2024-08-01T00:00',
];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const short = (c: { index: number; start: Date; end: Date } | null) =>
  c && [c.index, c.start.toISOString(), c.end.toISOString()];

describe('the cycle calendar answers as it did, in every zone', () => {
  it.each(ZONES)('%s', (zone) => {
    const next = random(zone.length * 7919);
    const wrong: unknown[] = [];
    for (const iso of ANCHORS) {
      const anchor = DateTime.fromISO(iso, { zone }).toJSDate();
      for (const paycycle of RECURRING_PAYCYCLES) {
        // Instants: the first starts and a ms either side, and random ones over three years.
        const ats: Date[] = [new Date(anchor.getTime() - 86_400_000), anchor];
        for (let k = 1; k <= 4; k++) {
          const s = reference.start(anchor, paycycle, k, zone).getTime();
          ats.push(new Date(s - 1), new Date(s), new Date(s + 1));
        }
        for (let i = 0; i < 4; i++) ats.push(new Date(anchor.getTime() + Math.floor(next() * 3 * 365 * 86_400_000)));
        for (const at of ats) {
          const expected = reference.at(anchor, paycycle, at, zone);
          const got = cycleAt(anchor, paycycle, at, zone);
          const before = expected.index === 0 ? null : reference.number(anchor, paycycle, expected.index - 1, zone);
          const resume =
            at <= anchor ? anchor : expected.start.getTime() === at.getTime() ? expected.start : expected.end;
          const answers = [
            short(got),
            short(cycleNumber(anchor, paycycle, expected.index, zone)),
            short(cycleBefore(anchor, paycycle, got, zone)),
            firstCycleStartOnOrAfter(anchor, paycycle, at, zone).toISOString(),
          ];
          const want = [short(expected), short(expected), short(before), resume.toISOString()];
          if (JSON.stringify(answers) !== JSON.stringify(want)) wrong.push({ iso, paycycle, at, answers, want });
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
