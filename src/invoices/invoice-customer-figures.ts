import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { CustomerFigures, CustomerFiguresSource, SqlAmountSum } from 'src/customers/customer-figures';

/**
 * Customer `total` (lifetime invoiced) and `balance` from invoices: the totals of the
 * customers' invoices that are not void. Payments lower `balance` through their own
 * figures source. Whether the customer is overdue is its stored `open_due_date`, kept by
 * OpenDueDates.
 */
@Injectable()
@CustomerFiguresSource()
export class InvoiceCustomerFigures implements CustomerFiguresSource {
  readonly sums = {
    invoice: (sum: SqlAmountSum, customerId: string) => `(SELECT ${sum('i.total')} FROM invoice i
          WHERE i.customer_id = ${customerId} AND i.void_datetime IS NULL AND i.deleted_datetime IS NULL)`,
  };

  add(figures: CustomerFigures, _kind: string, amount: Decimal): void {
    figures.total = figures.total.plus(amount);
    figures.balance = figures.balance.plus(amount);
  }
}
