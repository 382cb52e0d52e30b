import { PAYCYCLES } from 'src/billing/paycycles';

/**
 * How long one cycle of a paycycle is (DESIGN §6 "Paycycles"): whole calendar months,
 * whole days, the semi-monthly `116` (the 1st and the 16th), or no cycle at all (`one`
 * bills once; `evy` on a tierset means "the cycle of the subscription it is on").
 */
export type CycleLength =
  { kind: 'months'; months: number } | { kind: 'days'; days: number } | { kind: 'semimonthly' } | { kind: 'none' };

const MONTHS: Readonly<Record<string, number>> = {
  mon: 1,
  '2mn': 2,
  qtr: 3,
  six: 6,
  yrl: 12,
  '2yr': 24,
  '3yr': 36,
  '4yr': 48,
  '5yr': 60,
  '10y': 120,
};

const DAYS: Readonly<Record<string, number>> = {
  dly: 1,
  '1wk': 7,
  '2wk': 14,
  '4wk': 28,
  '8wk': 56,
  '12w': 84,
  '30d': 30,
};

/** The length of `paycycle`; a code outside DESIGN §6 is a programming error. */
export function cycleLength(paycycle: string): CycleLength {
  if (Object.prototype.hasOwnProperty.call(MONTHS, paycycle)) return { kind: 'months', months: MONTHS[paycycle] };
  if (Object.prototype.hasOwnProperty.call(DAYS, paycycle)) return { kind: 'days', days: DAYS[paycycle] };
  if (paycycle === '116') return { kind: 'semimonthly' };
  if (paycycle === 'one' || paycycle === 'evy') return { kind: 'none' };
  throw new Error(`Unknown paycycle "${paycycle}"`);
}

/** The paycycles a subscription can run on: every one that repeats. */
export const RECURRING_PAYCYCLES: readonly string[] = PAYCYCLES.filter((code) => cycleLength(code).kind !== 'none');
