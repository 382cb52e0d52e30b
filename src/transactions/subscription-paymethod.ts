import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Plugins } from 'src/core/plugins/plugins';
import { StoredMethodRef, SubscriptionPaymethodSource } from 'src/paymethods/subscription-paymethod-source';

export type { StoredMethodRef };

/**
 * Payment-method selection step 1 (SPEC "Transactions"): the method of the subscription
 * an invoice came from, asked of the `@SubscriptionPaymethodSource()` provider found at
 * start (the subscriptions module's); without one, step 1 never applies.
 */
@Injectable()
export class SubscriptionPaymethods implements OnModuleInit {
  private source: SubscriptionPaymethodSource | null = null;

  constructor(private readonly plugins: Plugins) {}

  onModuleInit(): void {
    const found = this.plugins.classes(SubscriptionPaymethodSource);
    if (found.length > 1) throw new Error('More than one subscription paymethod source is marked');
    this.source = found[0]?.instance ?? null;
  }

  methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null> {
    return this.source ? this.source.methodOf(m, packageId) : Promise.resolve(null);
  }
}
