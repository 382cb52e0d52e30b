import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerExtensions } from 'src/customers/customer-figures';

/** Customer `mrr` and `arr` (DESIGN §6): the sum of its subscriptions' MRR; ARR = 12 × MRR. */
@Injectable()
export class SubscriptionCustomerFigures implements OnModuleInit {
  constructor(private readonly customers: CustomerExtensions) {}

  onModuleInit(): void {
    this.customers.addFiguresSource({
      sums: {
        mrr: (sum, customerId) => `(SELECT ${sum('p.mrr')} FROM package p WHERE p.customer_id = ${customerId})`,
      },
      add: (figures, _kind, amount) => {
        figures.mrr = figures.mrr.plus(amount);
        figures.arr = figures.arr.plus(amount.times(12));
      },
    });
  }
}
