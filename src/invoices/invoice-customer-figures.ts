import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerExtensions } from 'src/customers/customer-figures';

/**
 * Customer `total` (lifetime invoiced) and `balance` from invoices: the totals of the
 * customers' invoices that are not void. Payments lower `balance` through their own
 * figures source.
 */
@Injectable()
export class InvoiceCustomerFigures implements OnModuleInit {
  constructor(private readonly customers: CustomerExtensions) {}

  onModuleInit(): void {
    this.customers.addFiguresSource({
      selects: (sum) => [
        `SELECT 'invoice' AS kind, customer_id, ${sum('total')} AS amount FROM invoice
         WHERE customer_id IN (:...ids) AND void_datetime IS NULL AND deleted_datetime IS NULL
         GROUP BY customer_id`,
      ],
      kinds: ['invoice'],
      add: (figures, _kind, amount) => {
        figures.total = figures.total.plus(amount);
        figures.balance = figures.balance.plus(amount);
      },
    });
  }
}
