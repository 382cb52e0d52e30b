import Decimal from 'decimal.js';
import { InvoiceSchedule } from './entities/invoice-schedule.entity';

/**
 * Money paid on an invoice covers its schedule entries in due-date order, so each
 * entry's balance is what is left of it (the invoice read and payments both use this).
 */
export function scheduleBalances(
  entries: InvoiceSchedule[],
  paid: Decimal,
): Array<{ entry: InvoiceSchedule; balance: Decimal }> {
  let left = paid;
  return [...entries]
    .sort((a, b) => a.due_date.localeCompare(b.due_date) || a.invoice_schedule_id - b.invoice_schedule_id)
    .map((entry) => {
      const covered = Decimal.min(left, entry.amount);
      left = left.minus(covered);
      return { entry, balance: entry.amount.minus(covered) };
    });
}
