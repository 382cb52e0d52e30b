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

/** `readStatus` as SQL over the invoice alias `alias`, for list filters. */
export function readStatusSql(alias: string, today: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`Bad account date: ${today}`);
  const stored = `${alias}.invoice_status_str`;
  return `(CASE WHEN ${stored} = 'open-unpaid' AND ${alias}.due_date < '${today}' THEN 'open-overdue' ELSE ${stored} END)`;
}
