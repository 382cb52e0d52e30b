/** Quote statuses (SPEC "Statuses"): str -> id, name, state. */
export const QUOTE_STATUSES = {
  'open-new': { id: 1, name: 'New', state: 'o' },
  'closed-won': { id: 2, name: 'Accepted', state: 'c' },
  'closed-lost': { id: 3, name: 'Rejected', state: 'c' },
} as const;

export type QuoteStatusStr = keyof typeof QUOTE_STATUSES;
