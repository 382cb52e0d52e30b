import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { CustomerFigures, CustomerFiguresSource, SqlAmountSum } from 'src/customers/customer-figures';

/** Customer `mrr` and `arr` (DESIGN §6): the sum of its subscriptions' MRR; ARR = 12 × MRR. */
@Injectable()
@CustomerFiguresSource()
export class SubscriptionCustomerFigures implements CustomerFiguresSource {
  readonly sums = {
    mrr: (sum: SqlAmountSum, customerId: string) =>
      `(SELECT ${sum('p.mrr')} FROM package p WHERE p.customer_id = ${customerId})`,
  };

  add(figures: CustomerFigures, _kind: string, amount: Decimal): void {
    figures.mrr = figures.mrr.plus(amount);
    figures.arr = figures.arr.plus(amount.times(12));
  }
}
