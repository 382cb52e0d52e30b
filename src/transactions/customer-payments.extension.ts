import { Injectable, OnModuleInit } from '@nestjs/common';
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

  /** One query for the whole page: rows are summed in decimal, never as SQL floats. */
  private async figuresFor(m: EntityManager, customerIds: number[]): Promise<Map<number, Partial<CustomerFigures>>> {
    const rows = await m.find(Transaction, {
      where: { customer_id: In(customerIds), transaction_type: In(['pay', 'ref']), status_str: 'ok-successful' },
      select: { transaction_id: true, customer_id: true, amount: true },
    });
    const result = new Map<number, Partial<CustomerFigures>>();
    for (const row of rows) {
      const current = result.get(row.customer_id)?.paid ?? ZERO;
      result.set(row.customer_id, { paid: current.plus(row.amount) });
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
