import Decimal from 'decimal.js';
import { annualValue, countsInMrr, monthlyValue, monthsPerCycle } from './recurring-revenue';

describe('MRR and ARR (exact decimals)', () => {
  it('converts each paycycle to months', () => {
    expect(monthsPerCycle('mon').toString()).toBe('1');
    expect(monthsPerCycle('2mn').toString()).toBe('2');
    expect(monthsPerCycle('qtr').toString()).toBe('3');
    expect(monthsPerCycle('six').toString()).toBe('6');
    expect(monthsPerCycle('yrl').toString()).toBe('12');
    expect(monthsPerCycle('2yr').toString()).toBe('24');
    expect(monthsPerCycle('10y').toString()).toBe('120');
    expect(monthsPerCycle('116').toString()).toBe('0.5');
    expect(monthsPerCycle('4wk').times('30.4375').toString()).toBe('28');
  });

  it('gives the monthly value of an amount per cycle', () => {
    expect(monthlyValue(new Decimal(100), 'mon').toString()).toBe('100');
    expect(monthlyValue(new Decimal(300), 'qtr').toString()).toBe('100');
    expect(monthlyValue(new Decimal(1200), 'yrl').toString()).toBe('100');
    expect(monthlyValue(new Decimal(250), '2mn').toString()).toBe('125');
    expect(monthlyValue(new Decimal(70), '1wk').toString()).toBe('304.375'); // 70 × 30.4375 / 7
    expect(monthlyValue(new Decimal(140), '2wk').toString()).toBe('304.375');
    expect(monthlyValue(new Decimal(10), 'dly').toString()).toBe('304.375');
    expect(monthlyValue(new Decimal(30), '30d').toString()).toBe('30.4375');
    expect(monthlyValue(new Decimal(50), '116').toString()).toBe('100');
  });

  it('ARR is twelve times MRR', () => {
    expect(annualValue(new Decimal('304.375')).toString()).toBe('3652.5');
  });

  it('refuses a paycycle that does not recur', () => {
    expect(() => monthsPerCycle('one')).toThrow('does not recur');
  });

  it('counts recurring lines only: not metered, one-time or in trial', () => {
    const recurring = { metered: false, oneTime: false, inTrial: false };
    expect(countsInMrr(recurring)).toBe(true);
    expect(countsInMrr({ ...recurring, metered: true })).toBe(false);
    expect(countsInMrr({ ...recurring, oneTime: true })).toBe(false);
    expect(countsInMrr({ ...recurring, inTrial: true })).toBe(false);
  });
});
