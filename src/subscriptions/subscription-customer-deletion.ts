import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CustomerDeletionGuard, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Subscription } from './entities/subscription.entity';

/** A customer with subscriptions (cancelled ones too: they explain its invoices) stays. */
@Injectable()
export class SubscriptionCustomerDeletion {
  @CustomerDeletionGuard()
  objection(manager: EntityManager, customerId: number): Promise<string | null> {
    return refuseWhileCustomerHas(manager, customerId, Subscription, 'subscription');
  }
}
