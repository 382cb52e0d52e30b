import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerExtensions } from 'src/customers/customer-figures';

/**
 * Customer `total` (lifetime invoiced) and `balance` from invoices: the totals of the
 * customers' invoices that are not void. Payments lower `balance` through their own
 * figures source. Whether the customer is overdue is its stored `open_due_date`, kept by
 * OpenDueDates.
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
  }
}
