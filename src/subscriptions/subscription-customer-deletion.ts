import { Injectable, OnModuleInit } from '@nestjs/common';
import { CustomerDeletion, refuseWhileCustomerHas } from 'src/customers/customer-deletion';
import { Subscription } from './entities/subscription.entity';

/** A customer with subscriptions (cancelled ones too: they explain its invoices) stays. */
@Injectable()
export class SubscriptionCustomerDeletion implements OnModuleInit {
  constructor(private readonly deletion: CustomerDeletion) {}

  onModuleInit(): void {
    this.deletion.addGuard(refuseWhileCustomerHas(Subscription, 'subscription'));
  }
}
