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
 * Overdue as of the account date `today`: the earliest due date of its open invoices
 * (stored as `open_due_date` by the invoice writers, null when none is open) is past.
 * Account dates (YYYY-MM-DD) compare as strings. The SQL twin is `overdueSql`; customers
 * and subscriptions both keep the column.
 */
export function isOverdue(openDueDate: string | null, today: string): boolean {
  return openDueDate !== null && openDueDate < today;
}

/** `isOverdue` as SQL over the stored column `openDueDate` (a range on its index); `today` trusted SQL. */
export function overdueSql(openDueDate: string, today: string): string {
  return `(${openDueDate} IS NOT NULL AND ${openDueDate} < ${today})`;
}

/** What a customer's status derives from besides its stored value, as of the read's account date. */
export interface CustomerStatusFacts {
  /** It owes money past a due date (`isOverdue`). */
  overdue: boolean;
  /** It had activity in the last 90 days (customer-activity.ts); only asked of `inactive-activity` customers. */
  recentActivity: boolean;
}

/**
 * The status as read (DESIGN §6 "Customers"): `inactive-manual` stands as stored, and so
 * does `inactive-activity` until the customer has new activity (the nightly job sets it);
 * an active customer reads `active-overdue` while it owes money past a due date, else
 * `active-current`, whatever is stored. The SQL twin is `customerStatusSql`.
 */
export function readCustomerStatus(stored: string, facts: CustomerStatusFacts): CustomerStatusStr {
  if (stored === 'inactive-manual') return stored;
  if (stored === 'inactive-activity' && !facts.recentActivity) return stored;
  return facts.overdue ? 'active-overdue' : 'active-current';
}

/**
 * `readCustomerStatus` as SQL: `stored` is the stored status column, `overdue` and
 * `recentActivity` trusted conditions (the second is evaluated for inactive-activity rows only).
 */
export function customerStatusSql(stored: string, overdue: string, recentActivity: string): string {
  return `(CASE WHEN ${stored} = 'inactive-manual' THEN ${stored}
    WHEN ${stored} = 'inactive-activity' AND NOT ${recentActivity} THEN ${stored}
    WHEN ${overdue} THEN 'active-overdue' ELSE 'active-current' END)`;
}

/**
 * `customerStatusSql(...) = value` for a known status, written so the database can use the
 * indexes on the stored status and on `open_due_date` (an overdue filter is a range on the
 * latter), or null for any other value (which matches no row either way). Same arguments
 * as `customerStatusSql`; the spec checks the two agree on every combination.
 */
export function customerStatusEqualsSql(
  value: string,
  stored: string,
  overdue: string,
  recentActivity: string,
): string | null {
  // Read as active: any stored value but a manual inactive one or a dormant one without activity.
  const readActive = `${stored} <> 'inactive-manual' AND (${stored} <> 'inactive-activity' OR ${recentActivity})`;
  switch (value.toLowerCase()) {
    case 'inactive-manual':
      return `${stored} = 'inactive-manual'`;
    case 'inactive-activity':
      return `${stored} = 'inactive-activity' AND NOT ${recentActivity}`;
    case 'active-overdue':
      return `${overdue} AND ${readActive}`;
    case 'active-current':
      return `NOT ${overdue} AND ${readActive}`;
    default:
      return null;
  }
}

/**
 * What the nightly job stores: a manual inactive status stands; a customer without recent
 * activity (and created before the window: see the nightly job) becomes
 * `inactive-activity`; any other customer is stored as a read derives it.
 */
export function nightlyCustomerStatus(stored: string, facts: CustomerStatusFacts): CustomerStatusStr {
  if (stored === 'inactive-manual') return stored;
  if (!facts.recentActivity) return 'inactive-activity';
  return readCustomerStatus(stored, facts);
}
