import { firstCycleStartOnOrAfter } from 'src/billing/cycles/cycle-calendar';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { isCancelled, isSuspended } from 'src/subscriptions/subscription-status';

/** What a billing run does with a subscription as of a moment. */
export type DueAction = { kind: 'none' } | { kind: 'bill'; cycleStart: Date } | { kind: 'resume'; at: Date };

type DueFacts = Pick<
  Subscription,
  | 'next_invoice_datetime'
  | 'package_status_str'
  | 'cancel_datetime'
  | 'holduntil_datetime'
  | 'suspendfrom_datetime'
  | 'suspendto_datetime'
  | 'start_datetime'
  | 'paycycle'
>;

/**
 * DESIGN §6 "Billing runs": the cycle at `next_invoice_datetime` is billed once it has
 * started, unless the subscription is expired, cancelled by then, held or suspended as of
 * `asOf`. A cycle that started inside a suspension which has ended since is never billed:
 * billing resumes at the first cycle start on or after the suspension's end (no back-billing).
 * `dueSubscriptions` (due-subscriptions.ts) is the SQL twin that finds the candidates.
 */
export function dueAction(sub: DueFacts, asOf: Date, zone: string): DueAction {
  const next = sub.next_invoice_datetime;
  if (next === null || next > asOf) return { kind: 'none' };
  if (sub.package_status_str === 'expired-expired') return { kind: 'none' };
  if (isCancelled(sub) && (sub.cancel_datetime === null || sub.cancel_datetime <= next)) return { kind: 'none' };
  if (sub.holduntil_datetime !== null && sub.holduntil_datetime > asOf) return { kind: 'none' };
  if (isSuspended(sub, asOf)) return { kind: 'none' };
  const { suspendfrom_datetime: from, suspendto_datetime: to } = sub;
  if (from !== null && to !== null && next >= from && next < to) {
    return { kind: 'resume', at: firstCycleStartOnOrAfter(sub.start_datetime, sub.paycycle, to, zone) };
  }
  return { kind: 'bill', cycleStart: next };
}
