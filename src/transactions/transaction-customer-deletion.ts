import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CustomerDeletionGuard, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Transaction } from './entities/transaction.entity';

/** A customer with transactions (payments, refunds, credits, failed attempts) stays: they are part of the books. */
@Injectable()
export class TransactionCustomerDeletion {
  @CustomerDeletionGuard()
  objection(manager: EntityManager, customerId: number): Promise<string | null> {
    return refuseWhileCustomerHas(manager, customerId, Transaction, 'transaction');
  }
}
