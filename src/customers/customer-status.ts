/** Customer statuses (SPEC "States": `customer_status_str` and its id, name and state). */
export const CUSTOMER_STATUSES = {
  'active-current': { id: 1, name: 'Current', state: 'a' },
  'active-overdue': { id: 2, name: 'Over Due', state: 'a' },
  'inactive-manual': { id: 3, name: 'Inactive (Manual)', state: 'i' },
  'inactive-activity': { id: 4, name: 'Inactive (No Activity)', state: 'i' },
} as const;

export type CustomerStatusStr = keyof typeof CUSTOMER_STATUSES;

export function customerStatus(str: string): { id: number; name: string; state: string; str: string } {
  const status = CUSTOMER_STATUSES[str as CustomerStatusStr] ?? CUSTOMER_STATUSES['active-current'];
  return { id: status.id, name: status.name, state: status.state, str };
}

/**
 * The status as read (DESIGN §6 "Customers"): an inactive status stands as stored (the
 * nightly job sets and clears `inactive-activity`); an active customer reads
 * `active-overdue` while it owes money past a due date (`overdue`, derived from its
 * invoices as of the read's account date), else `active-current`, whatever is stored.
 * The SQL twin is `customerStatusSql`.
 */
export function readCustomerStatus(stored: string, overdue: boolean): CustomerStatusStr {
  if (stored === 'inactive-manual' || stored === 'inactive-activity') return stored;
  return overdue ? 'active-overdue' : 'active-current';
}

/** `readCustomerStatus` as SQL: `stored` is the stored status column, `overdue` a trusted condition. */
export function customerStatusSql(stored: string, overdue: string): string {
  return `(CASE WHEN ${stored} IN ('inactive-manual', 'inactive-activity') THEN ${stored}
    WHEN ${overdue} THEN 'active-overdue' ELSE 'active-current' END)`;
}

/**
 * What the nightly job stores: a manual inactive status stands; a customer without recent
 * activity (`recentActivity`: see the nightly job) becomes `inactive-activity`, and one
 * with it is active again, overdue or current as a read derives it.
 */
export function nightlyCustomerStatus(
  stored: string,
  facts: { overdue: boolean; recentActivity: boolean },
): CustomerStatusStr {
  if (stored === 'inactive-manual') return stored;
  if (!facts.recentActivity) return 'inactive-activity';
  return readCustomerStatus('active-current', facts.overdue);
}
