/**
 * Paycycle codes and their English names (DESIGN §6 "Paycycles"), shared by items,
 * invoices, quotes and subscriptions. Cycle arithmetic lives with the billing runs.
 */
export const PAYCYCLE_NAMES: Readonly<Record<string, string>> = {
  dly: 'Daily',
  '1wk': 'Weekly',
  '2wk': 'Every 2 weeks',
  '4wk': 'Every 4 weeks',
  '8wk': 'Every 8 weeks',
  '12w': 'Every 12 weeks',
  '30d': 'Every 30 days',
  '116': '1st and 16th',
  mon: 'Monthly',
  '2mn': 'Every 2 months',
  qtr: 'Quarterly',
  six: 'Every 6 months',
  yrl: 'Yearly',
  '2yr': 'Every 2 years',
  '3yr': 'Every 3 years',
  '4yr': 'Every 4 years',
  '5yr': 'Every 5 years',
  '10y': 'Every 10 years',
  one: 'One time',
  evy: 'Every cycle',
};

export const PAYCYCLES = Object.keys(PAYCYCLE_NAMES);

/** `paycycle_name` for a code; null for none or an unknown code. */
export function paycycleName(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  return Object.prototype.hasOwnProperty.call(PAYCYCLE_NAMES, code) ? PAYCYCLE_NAMES[code] : null;
}
