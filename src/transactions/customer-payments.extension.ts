import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { queryRows } from 'src/database/raw-query';
import { CustomerExtensions, CustomerFigures } from 'src/customers/customer-figures';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { COUNTING_STATUSES } from './transaction-status';

/**
 * What payments add to customers: `paid` (successful payments minus refunds) and
 * customer rule 2 (a parent that paid for a child stays its parent).
 */
@Injectable()
export class CustomerPaymentsExtension implements OnModuleInit {
  constructor(private readonly extensions: CustomerExtensions) {}

  onModuleInit(): void {
    this.extensions.addFiguresSource({ figuresFor: (m, ids) => this.figuresFor(m, ids) });
    this.extensions.addParentChangeGuard((m, customerId, parentId) =>
      this.assertParentNeverPaid(m, customerId, parentId),
    );
  }

  /**
   * One query for the whole page, summed in decimal (never SQL floats): `paid` from the
   * customers' own payments and refunds; `balance` lowered by the money applied to their
   * invoices (the invoices module adds the invoice totals).
   */
  private async figuresFor(m: EntityManager, customerIds: number[]): Promise<Map<number, Partial<CustomerFigures>>> {
    const rows = await queryRows<{ kind: 'paid' | 'applied'; customer_id: number; amount: string | number }>(
      m,
      `SELECT 'paid' AS kind, t.customer_id AS customer_id, t.amount AS amount FROM payment_transaction t
       WHERE t.customer_id IN (:...ids) AND t.transaction_type IN ('pay', 'ref') AND t.status_str = 'ok-successful'
       UNION ALL
       SELECT 'applied' AS kind, ta.invoice_customer_id AS customer_id, ta.applied AS amount FROM transaction_applied ta
       INNER JOIN payment_transaction t ON t.transaction_id = ta.transaction_id
       WHERE ta.invoice_customer_id IN (:...ids) AND t.status_str IN (:...statuses)`,
      { ids: customerIds, statuses: COUNTING_STATUSES },
    );
    const result = new Map<number, { paid: Decimal; balance: Decimal }>();
    for (const row of rows) {
      const id = Number(row.customer_id);
      let entry = result.get(id);
      if (!entry) result.set(id, (entry = { paid: ZERO, balance: ZERO }));
      const amount = AMOUNT.transformer.from(row.amount) ?? ZERO;
      if (row.kind === 'paid') entry.paid = entry.paid.plus(amount);
      else entry.balance = entry.balance.minus(amount);
    }
    return result;
  }

  private async assertParentNeverPaid(m: EntityManager, customerId: number, parentId: number): Promise<void> {
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
