import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerExtensions } from 'src/customers/customer-figures';
import { owesPastDueSql } from './invoice-status';

/**
 * Customer `total` (lifetime invoiced) and `balance` from invoices: the totals of the
 * customers' invoices that are not void. Payments lower `balance` through their own
 * figures source. And the customer is overdue while one of its invoices owes money past
 * its due date (index invoice(customer_id, invoice_status_str, due_date)).
 */
@Injectable()
export class InvoiceCustomerFigures implements OnModuleInit {
  constructor(private readonly customers: CustomerExtensions) {}

  onModuleInit(): void {
    this.customers.addFiguresSource({
      sums: {
        invoice: (sum, customerId) => `(SELECT ${sum('i.total')} FROM invoice i
          WHERE i.customer_id = ${customerId} AND i.void_datetime IS NULL AND i.deleted_datetime IS NULL)`,
      },
      add: (figures, _kind, amount) => {
        figures.total = figures.total.plus(amount);
        figures.balance = figures.balance.plus(amount);
      },
    });
    this.customers.addOverdueSource(
      (customerId, today) => `EXISTS (SELECT 1 FROM invoice io WHERE io.customer_id = ${customerId}
        AND ${owesPastDueSql('io', today)} AND io.deleted_datetime IS NULL)`,
    );
  }
}
