import { DateTime } from 'luxon';
import { cycleAt, cycleStart, firstCycleStartOnOrAfter } from './cycle-calendar';

const ZONE = 'America/Chicago';
const at = (local: string): Date => DateTime.fromISO(local, { zone: ZONE }).toJSDate();
const local = (d: Date): string => DateTime.fromJSDate(d, { zone: ZONE }).toFormat('yyyy-MM-dd HH:mm');

/** Every expected start is written out by hand (k → local date of the account zone). */
function starts(anchor: string, paycycle: string, expected: Record<number, string>): void {
  for (const [k, date] of Object.entries(expected)) {
    expect([paycycle, Number(k), local(cycleStart(at(anchor), paycycle, Number(k), ZONE))]).toEqual([
      paycycle,
      Number(k),
      date,
    ]);
  }
}

describe('cycle starts from a Jan 31 anchor (2024, a leap year)', () => {
  const A = '2024-01-31T09:00';
  it('month-based cycles clamp at month ends and return (computed from the anchor)', () => {
    starts(A, 'mon', {
      0: '2024-01-31 09:00',
      1: '2024-02-29 09:00',
      2: '2024-03-31 09:00',
      3: '2024-04-30 09:00',
      4: '2024-05-31 09:00',
      12: '2025-01-31 09:00',
      13: '2025-02-28 09:00',
      14: '2025-03-31 09:00',
    });
    starts(A, '2mn', {
      1: '2024-03-31 09:00',
      2: '2024-05-31 09:00',
      4: '2024-09-30 09:00',
      5: '2024-11-30 09:00',
      6: '2025-01-31 09:00',
    });
    starts(A, 'qtr', { 1: '2024-04-30 09:00', 2: '2024-07-31 09:00', 3: '2024-10-31 09:00', 4: '2025-01-31 09:00' });
    starts(A, 'six', { 1: '2024-07-31 09:00', 2: '2025-01-31 09:00' });
    starts(A, 'yrl', { 1: '2025-01-31 09:00', 2: '2026-01-31 09:00' });
    starts(A, '2yr', { 1: '2026-01-31 09:00' });
    starts(A, '3yr', { 1: '2027-01-31 09:00' });
    starts(A, '4yr', { 1: '2028-01-31 09:00' });
    starts(A, '5yr', { 1: '2029-01-31 09:00' });
    starts(A, '10y', { 1: '2034-01-31 09:00' });
  });

  it('day-based cycles count calendar days and keep the time of day across DST (Mar 10 2024)', () => {
    starts(A, 'dly', { 1: '2024-02-01 09:00', 29: '2024-02-29 09:00', 30: '2024-03-01 09:00' });
    starts(A, '1wk', {
      1: '2024-02-07 09:00',
      4: '2024-02-28 09:00',
      5: '2024-03-06 09:00',
      6: '2024-03-13 09:00',
    });
    starts(A, '2wk', { 1: '2024-02-14 09:00', 2: '2024-02-28 09:00', 3: '2024-03-13 09:00' });
    starts(A, '4wk', { 1: '2024-02-28 09:00', 2: '2024-03-27 09:00' });
    starts(A, '8wk', { 1: '2024-03-27 09:00', 2: '2024-05-22 09:00' });
    starts(A, '12w', { 1: '2024-04-24 09:00', 2: '2024-07-17 09:00' });
    starts(A, '30d', { 1: '2024-03-01 09:00', 2: '2024-03-31 09:00', 3: '2024-04-30 09:00' });
  });

  it('116 runs to the next 1st or 16th, then from boundary to boundary', () => {
    starts(A, '116', {
      0: '2024-01-31 09:00',
      1: '2024-02-01 09:00',
      2: '2024-02-16 09:00',
      3: '2024-03-01 09:00',
      4: '2024-03-16 09:00',
    });
    starts('2024-03-05T09:00', '116', { 1: '2024-03-16 09:00', 2: '2024-04-01 09:00' });
    starts('2024-03-16T09:00', '116', { 1: '2024-04-01 09:00', 2: '2024-04-16 09:00' });
  });
});

describe('cycle starts from a Feb 29 anchor across years', () => {
  const A = '2024-02-29T09:00';
  it('clamps to Feb 28 in common years and returns to Feb 29 in leap years', () => {
    starts(A, 'mon', {
      1: '2024-03-29 09:00',
      2: '2024-04-29 09:00',
      11: '2025-01-29 09:00',
      12: '2025-02-28 09:00',
      13: '2025-03-29 09:00',
    });
    starts(A, 'qtr', { 1: '2024-05-29 09:00', 4: '2025-02-28 09:00', 16: '2028-02-29 09:00' });
    starts(A, 'six', { 1: '2024-08-29 09:00', 2: '2025-02-28 09:00' });
    starts(A, 'yrl', { 1: '2025-02-28 09:00', 2: '2026-02-28 09:00', 3: '2027-02-28 09:00', 4: '2028-02-29 09:00' });
    starts(A, '2yr', { 1: '2026-02-28 09:00', 2: '2028-02-29 09:00' });
    starts(A, '3yr', { 1: '2027-02-28 09:00' });
    starts(A, '4yr', { 1: '2028-02-29 09:00' });
    starts(A, '5yr', { 1: '2029-02-28 09:00' });
    starts(A, '10y', { 1: '2034-02-28 09:00' });
    starts(A, 'dly', { 1: '2024-03-01 09:00' });
    starts(A, '1wk', { 1: '2024-03-07 09:00' });
  });
});

describe('cycleAt and firstCycleStartOnOrAfter', () => {
  const anchor = at('2024-01-31T09:00');
  it('finds the cycle holding an instant; a cycle start belongs to the cycle it starts', () => {
    const c = cycleAt(anchor, 'mon', at('2024-03-15T12:00'), ZONE);
    expect([c.index, local(c.start), local(c.end)]).toEqual([1, '2024-02-29 09:00', '2024-03-31 09:00']);
    expect(cycleAt(anchor, 'mon', at('2024-03-31T09:00'), ZONE).index).toBe(2);
    expect(cycleAt(anchor, 'mon', at('2024-03-31T08:59'), ZONE).index).toBe(1);
    expect(cycleAt(anchor, 'mon', at('2023-12-01T00:00'), ZONE).index).toBe(0);
    expect(cycleAt(anchor, 'yrl', at('2030-06-01T00:00'), ZONE).index).toBe(6);
    expect(cycleAt(anchor, '1wk', at('2024-03-13T09:00'), ZONE).index).toBe(6);
    expect(cycleAt(anchor, '116', at('2024-03-10T00:00'), ZONE).index).toBe(3);
  });

  it('moves the end of a suspension or hold to the next cycle start (no back-billing)', () => {
    expect(local(firstCycleStartOnOrAfter(anchor, 'mon', at('2024-04-10T00:00'), ZONE))).toBe('2024-04-30 09:00');
    expect(local(firstCycleStartOnOrAfter(anchor, 'mon', at('2024-04-30T09:00'), ZONE))).toBe('2024-04-30 09:00');
    expect(local(firstCycleStartOnOrAfter(anchor, 'mon', at('2024-01-01T00:00'), ZONE))).toBe('2024-01-31 09:00');
    expect(local(firstCycleStartOnOrAfter(anchor, 'qtr', at('2024-05-01T00:00'), ZONE))).toBe('2024-07-31 09:00');
  });
});
