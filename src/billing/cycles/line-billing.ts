import { accountDate, accountMidnight } from 'src/core/time/account-date';
import { Cycle, cycleNumber } from './cycle-calendar';

/** How a subscription line is billed: recurring lines in advance, usage lines in arrears. */
export type LineBasis = 'recurring' | 'usage';

/**
 * The period a line is billed for on the invoice of cycle `k` (DESIGN §6): a recurring
 * line for the cycle that starts at the invoice, a usage line for the cycle that just
 * ended; null when there is nothing to bill (usage on the first invoice).
 */
export function billedPeriod(anchor: Date, paycycle: string, k: number, basis: LineBasis, zone: string): Cycle | null {
  if (basis === 'recurring') return cycleNumber(anchor, paycycle, k, zone);
  return k === 0 ? null : cycleNumber(anchor, paycycle, k - 1, zone);
}

/** What the cycle rules need to know about one line when an invoice is built. */
export interface LineHistory {
  /** When the line was subscribed. */
  subscribed: Date;
  /** `trial_days` of the line (0 = none). */
  trialDays: number;
  /** The item's `trial_recurs`: the line's first N invoices are free (0 / null = none). */
  trialRecurs: number | null;
  /** `expire_recurs`: the line is billed on N invoices, then expires (null = never). */
  expireRecurs: number | null;
  /** Invoices this line has already been on. */
  invoicesBilled: number;
}

/** True when the line is free on an invoice whose cycle starts at `cycleStart` (a trial). */
export function isInTrial(line: LineHistory, cycleStart: Date): boolean {
  if (line.trialRecurs && line.invoicesBilled < line.trialRecurs) return true;
  if (line.trialDays <= 0) return false;
  return cycleStart.getTime() < line.subscribed.getTime() + line.trialDays * 86_400_000;
}

/** A tierset's setup fee is billed once, on the line's first invoice. */
export function billsSetup(line: LineHistory): boolean {
  return line.invoicesBilled === 0;
}

/** A tierset with paycycle `one` is a one-time price (DESIGN §6 "One-time lines"). */
export function isOneTime(tiersetPaycycle: string | null | undefined): boolean {
  return tiersetPaycycle === 'one';
}

/**
 * Whether a line's price is on this invoice: a one-time price bills once, on the line's
 * first invoice; any other on every invoice (until it expires).
 */
export function billsPrice(
  line: Pick<LineHistory, 'invoicesBilled'>,
  tiersetPaycycle: string | null | undefined,
): boolean {
  return !isOneTime(tiersetPaycycle) || line.invoicesBilled === 0;
}

/**
 * The usage period of a cycle (DESIGN §6 "Usage periods are account-zone days"): the
 * account dates from the cycle's start date up to the next cycle's start date, as
 * [midnight of the start date, midnight of the end date). A record belongs to the cycle
 * whose period holds its `from`; a date-only `from` (that day's midnight) falls in it.
 * `since`: a line subscribed during the cycle counts from its own subscription date.
 */
export function usagePeriod(cycle: Pick<Cycle, 'start' | 'end'>, zone: string, since?: Date): { from: Date; to: Date } {
  const start = since && since > cycle.start ? since : cycle.start;
  return {
    from: accountMidnight(accountDate(start, zone), zone),
    to: accountMidnight(accountDate(cycle.end, zone), zone),
  };
}

/** True once the line has been on its `expire_recurs` invoices and must not be billed again. */
export function hasExpired(line: Pick<LineHistory, 'expireRecurs' | 'invoicesBilled'>): boolean {
  return line.expireRecurs !== null && line.expireRecurs > 0 && line.invoicesBilled >= line.expireRecurs;
}

/**
 * True once a line is over (DESIGN §6 "Expiry"): its `expire_datetime` (`expireAt`) has
 * passed, or, without one, it has been on its `expire_recurs` invoices. A subscription
 * whose live lines have all ended is `expired-expired`. The SQL twin is `lineEndedSql`
 * (subscriptions/subscription-status.ts).
 */
export function hasEnded(
  line: Pick<LineHistory, 'expireRecurs' | 'invoicesBilled'>,
  expireAt: Date | null,
  now: Date,
): boolean {
  return expireAt !== null ? expireAt <= now : hasExpired(line);
}
