import { DateTime } from 'luxon';

/** DESIGN §6 "Billing runs": a declined charge is retried 3, 7 and 14 days after the first decline. */
export const DUNNING_RETRY_DAYS: readonly number[] = [3, 7, 14];

/**
 * When the charge after `failures` declines is due, counted in calendar days of the account
 * zone from the first decline (the same local time, across daylight-saving changes); null
 * when the schedule is over.
 */
export function dunningRetryAt(firstFailure: Date, failures: number, zone: string): Date | null {
  const days = DUNNING_RETRY_DAYS[failures - 1];
  if (days === undefined) return null;
  return DateTime.fromJSDate(firstFailure, { zone }).plus({ days }).toJSDate();
}
