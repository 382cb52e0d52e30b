import { DateTime } from 'luxon';
import { cycleNumber } from './cycle-calendar';
import { isProrated, proratedAmount, prorationFraction } from './proration';
import Decimal from 'decimal.js';

const ZONE = 'America/Chicago';
const at = (local: string): Date => DateTime.fromISO(local, { zone: ZONE }).toJSDate();
const anchor = at('2024-01-31T09:00');

describe('proration of an upgrade (whole days in the account zone, 9 places, half up)', () => {
  // Cycle 2 of a monthly subscription anchored Jan 31: Mar 31 09:00 .. Apr 30 09:00, 30 days.
  const april = cycleNumber(anchor, 'mon', 2, ZONE);
  // Cycle 1: Feb 29 .. Mar 31, 31 days (it crosses the DST change of Mar 10).
  const march = cycleNumber(anchor, 'mon', 1, ZONE);

  it('on the first day of a cycle the whole cycle is left', () => {
    expect(prorationFraction(april, at('2024-03-31T09:00'), ZONE).toFixed(9)).toBe('1.000000000');
    expect(prorationFraction(april, at('2024-03-31T23:59'), ZONE).toFixed(9)).toBe('1.000000000');
    expect(prorationFraction(march, at('2024-02-29T10:00'), ZONE).toFixed(9)).toBe('1.000000000');
  });

  it('in the middle of a cycle: days left / days in the cycle', () => {
    expect(prorationFraction(april, at('2024-04-15T12:00'), ZONE).toFixed(9)).toBe('0.500000000'); // 15/30
    expect(prorationFraction(april, at('2024-04-10T08:00'), ZONE).toFixed(9)).toBe('0.666666667'); // 20/30
    expect(prorationFraction(march, at('2024-03-10T12:00'), ZONE).toFixed(9)).toBe('0.677419355'); // 21/31
  });

  it('counts days in the account zone, not UTC', () => {
    // 04:30 UTC on Mar 10 is still Mar 9 in Chicago: 22 of 31 days are left.
    expect(prorationFraction(march, new Date('2024-03-10T04:30:00Z'), ZONE).toFixed(9)).toBe('0.709677419');
  });

  it('on the last day of a cycle one day is left', () => {
    expect(prorationFraction(april, at('2024-04-29T18:00'), ZONE).toFixed(9)).toBe('0.033333333'); // 1/30
    expect(prorationFraction(march, at('2024-03-30T18:00'), ZONE).toFixed(9)).toBe('0.032258065'); // 1/31, half up
  });

  it('nothing is left at or after the end', () => {
    expect(prorationFraction(april, at('2024-04-30T09:00'), ZONE).toFixed(9)).toBe('0.000000000');
  });

  it('prices the fraction once, to the cent, half up', () => {
    expect(proratedAmount(new Decimal('99.99'), new Decimal('0.677419355')).toFixed(2)).toBe('67.74'); // 67.7351613...
    expect(proratedAmount(new Decimal('800'), new Decimal('0.666666667')).toFixed(2)).toBe('533.33'); // 533.3333336
    expect(proratedAmount(new Decimal('-200'), new Decimal('0.5')).toFixed(2)).toBe('-100.00');
    expect(proratedAmount(new Decimal('0.15'), new Decimal('0.5')).toFixed(2)).toBe('0.08'); // 0.075 half up
  });

  it('prorates recurring prices only: never a metered line nor a one-time price', () => {
    expect(isProrated({ metered: false, tiersetPaycycle: 'evy' })).toBe(true);
    expect(isProrated({ metered: false, tiersetPaycycle: null })).toBe(true);
    expect(isProrated({ metered: true, tiersetPaycycle: 'evy' })).toBe(false);
    expect(isProrated({ metered: false, tiersetPaycycle: 'one' })).toBe(false);
  });
});
