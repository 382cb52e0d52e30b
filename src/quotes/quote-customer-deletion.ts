import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CustomerDeletionGuard, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Quote } from './entities/quote.entity';

/** A customer with quotes stays: a quote names its customer (and may become an invoice). */
@Injectable()
export class QuoteCustomerDeletion {
  @CustomerDeletionGuard()
  objection(manager: EntityManager, customerId: number): Promise<string | null> {
    return refuseWhileCustomerHas(manager, customerId, Quote, 'quote');
  }
}
