import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
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
   * Two queries for the whole page, summed in decimal (never SQL floats): `paid` from
   * the customers' own payments and refunds; `balance` lowered by the money applied to
   * their invoices (the invoices module adds the invoice totals).
   */
  private async figuresFor(m: EntityManager, customerIds: number[]): Promise<Map<number, Partial<CustomerFigures>>> {
    const payments = await m.find(Transaction, {
      where: { customer_id: In(customerIds), transaction_type: In(['pay', 'ref']), status_str: 'ok-successful' },
      select: { transaction_id: true, customer_id: true, amount: true },
    });
    const applied = await m
      .createQueryBuilder(TransactionApplied, 'ta')
      .innerJoin(Transaction, 't', 't.transaction_id = ta.transaction_id')
      .select(['ta.transaction_applied_id', 'ta.invoice_customer_id', 'ta.applied'])
      .where({ invoice_customer_id: In(customerIds) })
      .andWhere('t.status_str IN (:...statuses)', { statuses: COUNTING_STATUSES })
      .getMany();
    const result = new Map<number, { paid: Decimal; balance: Decimal }>();
    const entry = (id: number) => {
      let found = result.get(id);
      if (!found) result.set(id, (found = { paid: ZERO, balance: ZERO }));
      return found;
    };
    for (const row of payments) entry(row.customer_id).paid = entry(row.customer_id).paid.plus(row.amount);
    for (const row of applied) {
      const e = entry(row.invoice_customer_id);
      e.balance = e.balance.minus(row.applied);
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
