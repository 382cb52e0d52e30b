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
