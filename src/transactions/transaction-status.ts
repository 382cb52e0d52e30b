/** Transaction statuses (DESIGN §6 "Transactions"). */
export const TRANSACTION_STATUSES = {
  'ok-successful': { id: 1, name: 'Success', state: 'o' },
  'ok-pending': { id: 2, name: 'Pending', state: 'o' },
  'fail-declined': { id: 3, name: 'Failed (Decline)', state: 'f' },
  'fail-error': { id: 4, name: 'Failed (Error)', state: 'f' },
  'void-voided': { id: 5, name: 'Void', state: 'v' },
} as const;

export type TransactionStatusStr = keyof typeof TRANSACTION_STATUSES;

/** Statuses whose money counts: applications of other transactions are history only. */
export const COUNTING_STATUSES: readonly TransactionStatusStr[] = ['ok-successful', 'ok-pending'];

/** SQL for the state letter of `status_str` (query field `transaction_status.state`). */
export function statusStateSql(column: string): string {
  return `(CASE WHEN ${column} LIKE 'ok-%' THEN 'o' WHEN ${column} LIKE 'fail-%' THEN 'f' ELSE 'v' END)`;
}
