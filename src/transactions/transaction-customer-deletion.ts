import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerDeletion, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Transaction } from './entities/transaction.entity';

/** A customer with transactions (payments, refunds, credits, failed attempts) stays: they are part of the books. */
@Injectable()
export class TransactionCustomerDeletion implements OnModuleInit {
  constructor(private readonly deletion: CustomerDeletion) {}

  onModuleInit(): void {
    this.deletion.addGuard(refuseWhileCustomerHas(Transaction, 'transaction'));
  }
}
