import Decimal from 'decimal.js';
import { Money } from 'src/core/money/decimal';
import { cycleLength } from './cycle-length';

/** Days in an average month (365.25 / 12): day-based cycles convert to months with it. */
export const DAYS_PER_MONTH = new Money('30.4375');

/** How many months one cycle of `paycycle` is (DESIGN §6 "MRR/ARR"); exact decimals. */
export function monthsPerCycle(paycycle: string): Decimal {
  const length = cycleLength(paycycle);
  switch (length.kind) {
    case 'months':
      return new Money(length.months);
    case 'days':
      return new Money(length.days).div(DAYS_PER_MONTH);
    case 'semimonthly':
      return new Money('0.5');
    case 'none':
      throw new Error(`Paycycle "${paycycle}" does not recur`);
  }
}

/** The monthly value of `amountPerCycle` billed every `paycycle`. */
export function monthlyValue(amountPerCycle: Decimal, paycycle: string): Decimal {
  const length = cycleLength(paycycle);
  // Day-based: amount × 30.4375 ÷ days, one division so 7-day cycles stay exact where they can.
  if (length.kind === 'days') return new Money(amountPerCycle).times(DAYS_PER_MONTH).div(length.days);
  return new Money(amountPerCycle).div(monthsPerCycle(paycycle));
}

/**
 * Whether a subscription line counts in MRR (DESIGN §6 "MRR/ARR"): recurring lines only;
 * a metered or one-time line counts zero, and so does a line in trial until its trial ends.
 */
export function countsInMrr(line: { metered: boolean; oneTime: boolean; inTrial: boolean }): boolean {
  return !line.metered && !line.oneTime && !line.inTrial;
}

/** ARR = 12 × MRR. */
export function annualValue(mrr: Decimal): Decimal {
  return new Money(mrr).times(12);
}
