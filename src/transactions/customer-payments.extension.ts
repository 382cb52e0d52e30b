import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import {
  CustomerFigures,
  CustomerFiguresSource,
  ParentChangeGuard,
  SqlAmountSum,
} from 'src/customers/customer-figures';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { COUNTING_STATUSES } from './transaction-status';

/**
 * What payments add to customers: `paid` (successful payments minus refunds) and
 * customer rule 2 (a parent that paid for a child stays its parent).
 */
@Injectable()
@CustomerFiguresSource()
export class CustomerPaymentsExtension implements CustomerFiguresSource {
  // `paid` from the customers' own payments and refunds; `balance` lowered by the money
  // applied to their invoices (the invoices module adds the invoice totals).
  // `+column` keeps SQLite, which has no statistics, off the status and type indexes
  // (which would read every payment that matches them) and on the customer's; it is a
  // no-op on MySQL and MariaDB, whose planners judge from statistics.
  readonly sums = {
    paid: (sum: SqlAmountSum, customerId: string) => `(SELECT ${sum('t.amount')} FROM payment_transaction t
          WHERE t.customer_id = ${customerId} AND +t.transaction_type IN ('pay', 'ref') AND +t.status_str = 'ok-successful')`,
    applied: (sum: SqlAmountSum, customerId: string) => `(SELECT ${sum('ta.applied')} FROM transaction_applied ta
          INNER JOIN payment_transaction t ON t.transaction_id = ta.transaction_id
          WHERE ta.invoice_customer_id = ${customerId} AND +t.status_str IN (:...payments_counting_statuses))`,
  };
  readonly params = { payments_counting_statuses: COUNTING_STATUSES };

  add(figures: CustomerFigures, kind: string, amount: Decimal): void {
    if (kind === 'paid') figures.paid = figures.paid.plus(amount);
    else figures.balance = figures.balance.minus(amount);
  }

  @ParentChangeGuard()
  async assertParentNeverPaid(m: EntityManager, customerId: number, parentId: number): Promise<void> {
    const paid = await m
      .createQueryBuilder(TransactionApplied, 'ta')
      .innerJoin(Transaction, 't', 't.transaction_id = ta.transaction_id')
      .where('ta.invoice_customer_id = :customerId', { customerId })
      .andWhere('t.customer_id = :parentId', { parentId })
      .andWhere("t.transaction_type = 'pay'")
      .andWhere('t.status_str IN (:...statuses)', { statuses: COUNTING_STATUSES })
      .getCount();
    if (paid > 0) {
      throw ApiError.badRequest(
        'Field "parent_customer_id" cannot change: the parent customer has made a payment for this customer.',
      );
    }
  }
}
