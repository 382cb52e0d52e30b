import { accountDate, addDays, daysBetween } from './account-date';

describe('account dates', () => {
  it('takes the date in the account zone, not UTC', () => {
    // 03:00 UTC on the 22nd is still the 21st in Chicago (UTC-6 in November).
    expect(accountDate(new Date('2026-11-22T03:00:00Z'), 'America/Chicago')).toBe('2026-11-21');
    expect(accountDate(new Date('2026-11-22T07:00:00Z'), 'America/Chicago')).toBe('2026-11-22');
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
});
