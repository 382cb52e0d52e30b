import { DateTime } from 'luxon';
import {
  accountDate,
  accountDateSql,
  accountMidnight,
  accountToday,
  addDays,
  daysBetween,
  nextAccountMidnight,
} from './account-date';

describe('account dates', () => {
  it('takes the date in the account zone, not UTC', () => {
    // 03:00 UTC on the 22nd is still the 21st in Chicago (UTC-6 in November).
    expect(accountDate(new Date('2026-11-22T03:00:00Z'), 'America/Chicago')).toBe('2026-11-21');
    expect(accountDate(new Date('2026-11-22T07:00:00Z'), 'America/Chicago')).toBe('2026-11-22');
  });

  it('remembers today only for the instants of that day, in that zone', () => {
    const instants = [
      '2026-11-22T03:00:00Z',
      '2026-11-22T05:59:59Z', // the last second of the 21st in Chicago
      '2026-11-22T06:00:00Z',
      '2026-11-21T12:00:00Z', // a clock moved back
      '2026-03-08T05:59:59Z', // the day DST starts, both sides of midnight
      '2026-03-08T06:00:00Z',
      '2026-03-09T04:59:59Z',
      '2026-03-09T05:00:00Z',
    ];
    for (const zone of ['America/Chicago', 'UTC', 'America/Chicago', 'Asia/Kolkata']) {
      for (const at of instants) expect(accountToday(new Date(at), zone)).toBe(accountDate(new Date(at), zone));
    }
  });

  it('adds days across month ends and DST changes', () => {
    expect(addDays('2015-03-31', 30)).toBe('2015-04-30');
    expect(addDays('2026-02-20', 15)).toBe('2026-03-07');
    expect(addDays('2026-11-01', 0)).toBe('2026-11-01');
  });

  it('counts whole days between dates', () => {
    expect(daysBetween('2015-04-30', '2015-05-12')).toBe(12);
    expect(daysBetween('2026-03-07', '2026-03-09')).toBe(2); // across the DST change
    expect(daysBetween('2026-01-10', '2026-01-01')).toBe(-9);
  });

  it('adds and counts days on plain dates as luxon does, leap years and bad dates included', () => {
    const luxonAdd = (date: string, days: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate();
    const luxonBetween = (from: string, to: string) =>
      Math.round(DateTime.fromISO(to, { zone: 'UTC' }).diff(DateTime.fromISO(from, { zone: 'UTC' }), 'days').days);
    const dates = ['2024-02-28', '2024-02-29', '2023-12-31', '1999-12-31', '2100-02-28', '2026-03-08'];
    for (const date of dates) {
      for (const days of [-400, -1, 0, 1, 29, 365]) expect(addDays(date, days)).toBe(luxonAdd(date, days));
      for (const other of dates) expect(daysBetween(date, other)).toBe(luxonBetween(date, other));
    }
    // Not a plain date: luxon decides, as before.
    expect(addDays('2026-02-30', 1)).toBe(luxonAdd('2026-02-30', 1));
    expect(addDays('2026-03-01T10:00:00', 1)).toBe('2026-03-02');
    expect(daysBetween('2026-03-01T00:00:00', '2026-03-03')).toBe(2);
  });

  it('finds the next midnight in the account zone, across a DST change', () => {
    expect(nextAccountMidnight(new Date('2026-11-22T03:00:00Z'), 'America/Chicago')).toEqual(
      new Date('2026-11-22T06:00:00Z'),
    );
    // Exactly at midnight: the next one, a day later.
    expect(nextAccountMidnight(new Date('2026-11-22T06:00:00Z'), 'America/Chicago')).toEqual(
      new Date('2026-11-23T06:00:00Z'),
    );
    // The night clocks go back (Nov 1, 2026): 25 hours from the day's start.
    expect(nextAccountMidnight(new Date('2026-11-01T12:00:00Z'), 'America/Chicago')).toEqual(
      new Date('2026-11-02T06:00:00Z'),
    );
  });

  it("finds a date's midnight in the account zone, and writes a date as SQL only when it is one", () => {
    expect(accountMidnight('2026-07-01', 'America/Chicago')).toEqual(new Date('2026-07-01T05:00:00Z'));
    expect(accountMidnight('2026-12-01', 'America/Chicago')).toEqual(new Date('2026-12-01T06:00:00Z'));
    expect(accountDateSql('2026-03-10')).toBe("'2026-03-10'");
    expect(() => accountDateSql("2026-03-10' OR 1=1")).toThrow('Bad account date');
  });
});
