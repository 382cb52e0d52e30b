import Decimal from 'decimal.js';
import { ZERO } from 'src/core/money/decimal';

/** An invoice money can go to, with its balance as of now. */
export interface OpenInvoice {
  invoice_id: number;
  /** `YYYY-MM-DD`: oldest/newest first order. */
  date: string;
  balance: Decimal;
}

/** How a transaction is spread over invoices (SPEC: exactly one style). */
export type ApplicationStyle =
  | { kind: 'none' }
  /** `applied_to` items; `applied` absent = as much as the invoice's balance allows. */
  | { kind: 'list'; items: Array<{ invoice_id: number; invoice_schedule_id: number | null; applied: Decimal | null }> }
  | { kind: 'auto'; order: 'oldest_first' | 'newest_first' | 'best_fit' };

export interface Application {
  invoice_id: number;
  invoice_schedule_id: number | null;
  applied: Decimal;
}

/**
 * Spreads `amount` over the invoices: never more than an invoice's balance nor than
 * what is left of the amount. What remains is the transaction's unapplied credit.
 * `invoices` must hold every listed invoice (a missing one gets nothing).
 */
export function allocate(amount: Decimal, style: ApplicationStyle, invoices: OpenInvoice[]): Application[] {
  if (style.kind === 'none') return [];
  const balances = new Map(invoices.map((i) => [i.invoice_id, i.balance]));
  const wanted =
    style.kind === 'list'
      ? style.items
      : autoOrder(amount, style.order, invoices).map((i) => ({
          invoice_id: i.invoice_id,
          invoice_schedule_id: null,
          applied: null,
        }));
  let left = amount;
  const result: Application[] = [];
  for (const item of wanted) {
    const balance = balances.get(item.invoice_id) ?? ZERO;
    const want = item.applied ?? balance;
    const applied = Decimal.max(ZERO, Decimal.min(want, balance, left));
    if (applied.gt(0) || style.kind === 'list') {
      result.push({ invoice_id: item.invoice_id, invoice_schedule_id: item.invoice_schedule_id, applied });
    }
    balances.set(item.invoice_id, balance.minus(applied));
    left = left.minus(applied);
  }
  return result.filter((a) => a.applied.gt(0));
}

/** `best_fit`: an invoice whose balance equals the amount first, then oldest first. */
function autoOrder(amount: Decimal, order: 'oldest_first' | 'newest_first' | 'best_fit', invoices: OpenInvoice[]) {
  const open = invoices.filter((i) => i.balance.gt(0));
  const oldest = [...open].sort((a, b) => a.date.localeCompare(b.date) || a.invoice_id - b.invoice_id);
  if (order === 'oldest_first') return oldest;
  if (order === 'newest_first') return [...oldest].reverse();
  const exact = oldest.find((i) => i.balance.eq(amount));
  return exact ? [exact, ...oldest.filter((i) => i !== exact)] : oldest;
}
