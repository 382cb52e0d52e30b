import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { CustomerFigures, CustomerFiguresSource, OverdueSource, SqlAmountSum } from 'src/customers/customer-figures';
import { owesPastDueSql } from './invoice-status';

/**
 * Customer `total` (lifetime invoiced) and `balance` from invoices: the totals of the
 * customers' invoices that are not void. Payments lower `balance` through their own
 * figures source. And the customer is overdue while one of its invoices owes money past
 * its due date (index invoice(customer_id, invoice_status_str, due_date)).
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

  @OverdueSource()
  overdueSql(customerId: string, today: string): string {
    return `EXISTS (SELECT 1 FROM invoice io WHERE io.customer_id = ${customerId}
        AND ${owesPastDueSql('io', today)} AND io.deleted_datetime IS NULL)`;
  }
}
