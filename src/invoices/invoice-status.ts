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
