import { accountDateSql } from 'src/core/time/account-date';
import { overdueSql } from 'src/customers/customer-status';

/** Subscription statuses (DESIGN §6 "Subscriptions"): str -> id, name, state. */
export const SUBSCRIPTION_STATUSES = {
  'active-trial': { id: 1, name: 'Trial', state: 'a' },
  'active-current': { id: 2, name: 'Current', state: 'a' },
  'active-overdue': { id: 3, name: 'Over Due', state: 'a' },
  'suspended-suspended': { id: 4, name: 'Suspended', state: 's' },
  'canceled-manual': { id: 5, name: 'Canceled manually', state: 'c' },
  'canceled-nonpayment': { id: 6, name: 'Canceled for non-payment', state: 'c' },
  'expired-expired': { id: 7, name: 'Expired', state: 'e' },
} as const;

export type SubscriptionStatusStr = keyof typeof SUBSCRIPTION_STATUSES;

/** What an action stores in `package_status_str`; the rest is derived. */
export type StoredStatus = 'active' | 'canceled-manual' | 'canceled-nonpayment' | 'expired-expired';

/** The stored facts the status depends on. */
export interface StatusFacts {
  package_status_str: string;
  cancel_datetime: Date | null;
  suspendfrom_datetime: Date | null;
  suspendto_datetime: Date | null;
}

/**
 * The status as of `now`: a cancellation once its date has come, expiry (stored, or every
 * live line ended: `hasEnded`; the nightly job stores it), a suspension
 * while it lasts, `active-overdue` while one of its invoices is overdue, `active-trial`
 * while a line is in trial, else `active-current`. The SQL twin is `statusSql`.
 */
export function subscriptionStatus(
  s: StatusFacts,
  now: Date,
  derived: { overdue: boolean; inTrial: boolean; ended: boolean },
): SubscriptionStatusStr {
  if (s.package_status_str.startsWith('canceled-') && s.cancel_datetime && s.cancel_datetime <= now) {
    return s.package_status_str as SubscriptionStatusStr;
  }
  if (s.package_status_str === 'expired-expired' || derived.ended) return 'expired-expired';
  if (isSuspended(s, now)) return 'suspended-suspended';
  if (derived.overdue) return 'active-overdue';
  if (derived.inTrial) return 'active-trial';
  return 'active-current';
}

export function isSuspended(s: StatusFacts, now: Date): boolean {
  return (
    s.suspendfrom_datetime !== null &&
    s.suspendfrom_datetime <= now &&
    (s.suspendto_datetime === null || now < s.suspendto_datetime)
  );
}

/** True once cancelled (now or with a future date: no further change is accepted). */
export function isCancelled(s: StatusFacts): boolean {
  return s.package_status_str.startsWith('canceled-');
}

/**
 * `package_status_str` as SQL over the alias `p`, for `where` and `order`. `now` and
 * `today` are literals we format ourselves (never client text).
 */
export function statusSql(now: string, today: string): string {
  // The earliest due date of its open invoices, kept by the invoice writers, is past.
  const overdue = overdueSql('p.open_due_date', accountDateSql(today));
  const trial = `EXISTS (SELECT 1 FROM package_line tl
    WHERE tl.package_id = p.package_id AND tl.cancel_datetime IS NULL AND tl.expire_datetime IS NULL
    AND (tl.trial_end_datetime > '${now}' OR (tl.trial_recurs IS NOT NULL AND tl.invoices_billed < tl.trial_recurs)))`;
  return `(CASE
    WHEN p.package_status_str LIKE 'canceled-%' AND p.cancel_datetime <= '${now}' THEN p.package_status_str
    WHEN p.package_status_str = 'expired-expired' OR ${allLinesEndedSql('p', `'${now}'`)} THEN 'expired-expired'
    WHEN p.suspendfrom_datetime IS NOT NULL AND p.suspendfrom_datetime <= '${now}'
      AND (p.suspendto_datetime IS NULL OR p.suspendto_datetime > '${now}') THEN 'suspended-suspended'
    WHEN ${overdue} THEN 'active-overdue'
    WHEN ${trial} THEN 'active-trial'
    ELSE 'active-current' END)`;
}

/**
 * True when the subscription (alias `sub`) has live lines and every one has ended, as of
 * `now` (trusted SQL).
 */
export function allLinesEndedSql(sub: string, now: string): string {
  const live = `FROM package_line {l} WHERE {l}.package_id = ${sub}.package_id AND {l}.cancel_datetime IS NULL`;
  return `(EXISTS (SELECT 1 ${live.replaceAll('{l}', 'el')})
    AND NOT EXISTS (SELECT 1 ${live.replaceAll('{l}', 'ul')} AND NOT ${lineEndedSql('ul', now)}))`;
}

/**
 * `hasEnded` (billing/cycles/line-billing.ts) as an SQL condition over the line alias
 * `alias`, as of `now` (trusted SQL: a named parameter). Null-safe: a line without
 * expiry is never ended.
 */
export function lineEndedSql(alias: string, now: string): string {
  return `(CASE WHEN ${alias}.expire_datetime IS NOT NULL
      THEN (CASE WHEN ${alias}.expire_datetime <= ${now} THEN 1 ELSE 0 END)
    WHEN COALESCE(${alias}.expire_recurs, 0) > 0 AND ${alias}.invoices_billed >= ${alias}.expire_recurs THEN 1
    ELSE 0 END) = 1`;
}
