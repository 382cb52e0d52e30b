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
