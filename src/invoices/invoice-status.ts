import { accountDateSql } from 'src/core/time/account-date';

/** Invoice statuses (SPEC "States and transitions"; DESIGN §6 "Invoices"). */
export const INVOICE_STATUSES = {
  'open-unpaid': { id: 1, name: 'Unpaid', state: 'o' },
  'open-overdue': { id: 2, name: 'Overdue', state: 'o' },
  'open-collections': { id: 3, name: 'Collections', state: 'o' },
  'closed-paid': { id: 4, name: 'Paid', state: 'c' },
  'closed-void': { id: 5, name: 'Void', state: 'c' },
} as const;

export type InvoiceStatusStr = keyof typeof INVOICE_STATUSES;

export function isClosed(status: InvoiceStatusStr): boolean {
  return INVOICE_STATUSES[status].state === 'c';
}

/** Past due: account dates (YYYY-MM-DD) compare as strings. */
export function isPastDue(dueDate: string, today: string): boolean {
  return dueDate < today;
}

/**
 * The one rule for reading a stored status: an unpaid invoice past its due date reads as
 * overdue (the stored value catches up on the next write or nightly run).
 */
export function readStatus(stored: InvoiceStatusStr, dueDate: string, today: string): InvoiceStatusStr {
  return stored === 'open-unpaid' && isPastDue(dueDate, today) ? 'open-overdue' : stored;
}

/**
 * Money due past its due date: an open invoice (unpaid, overdue or in collections) due
 * before today. This is what makes its customer and its subscription overdue; the SQL
 * twin is `owesPastDueSql`.
 */
export function owesPastDue(stored: InvoiceStatusStr, dueDate: string, today: string): boolean {
  return INVOICE_STATUSES[stored].state === 'o' && isPastDue(dueDate, today);
}

const OPEN_STATUSES_SQL = Object.entries(INVOICE_STATUSES)
  .filter(([, status]) => status.state === 'o')
  .map(([str]) => `'${str}'`)
  .join(', ');

/**
 * `owesPastDue` as an SQL condition over the invoice alias `alias`. `today` is trusted SQL
 * of an account date: a named parameter (`:today`) or `accountDateSql(date)`.
 */
export function owesPastDueSql(alias: string, today: string): string {
  return `(${alias}.invoice_status_str IN (${OPEN_STATUSES_SQL}) AND ${alias}.due_date < ${today})`;
}

/**
 * An invoice that still owes money: open, neither void nor deleted. The earliest due date
 * of these is what its customer and subscription store (open-due-dates.ts): they are
 * overdue exactly while `owesPastDue` holds for one of them.
 */
export function openInvoiceSql(alias: string): string {
  return `(${alias}.invoice_status_str IN (${OPEN_STATUSES_SQL}) AND ${alias}.void_datetime IS NULL
    AND ${alias}.deleted_datetime IS NULL)`;
}

/**
 * `readStatusSql(alias, today) = value` for a known status, written so the database can use
 * the index on (invoice_status_str, due_date), or null for any other value. The spec checks
 * it against `readStatus` for every stored status and due date.
 */
export function readStatusEqualsSql(alias: string, today: string, value: string): string | null {
  const stored = `${alias}.invoice_status_str`;
  const pastDue = `${alias}.due_date < ${accountDateSql(today)}`;
  const status = value.toLowerCase();
  if (status === 'open-overdue') return `${stored} = 'open-overdue' OR (${stored} = 'open-unpaid' AND ${pastDue})`;
  if (status === 'open-unpaid') return `${stored} = 'open-unpaid' AND NOT ${pastDue}`;
  return status in INVOICE_STATUSES ? `${stored} = '${status}'` : null;
}

/** `readStatus` as SQL over the invoice alias `alias`, for list filters. */
export function readStatusSql(alias: string, today: string): string {
  const stored = `${alias}.invoice_status_str`;
  return `(CASE WHEN ${stored} = 'open-unpaid' AND ${alias}.due_date < ${accountDateSql(today)} THEN 'open-overdue' ELSE ${stored} END)`;
}
