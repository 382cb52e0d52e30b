import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EntityManager } from 'typeorm';
import {
  NoSubscriptionPaymethods,
  StoredMethodRef,
  SubscriptionPaymethods,
} from 'src/transactions/subscription-paymethod';
import { Subscription } from './entities/subscription.entity';

/**
 * Step 1 of payment-method selection (SPEC "Transactions"): an invoice from a subscription
 * is paid with the subscription's stored method. Handed to the payments side at start.
 */
@Injectable()
export class SubscriptionPaymethodLookup extends SubscriptionPaymethods implements OnModuleInit {
  constructor(private readonly moduleRef: ModuleRef) {
    super();
  }

  onModuleInit(): void {
    // Payments does not export its provider: found across modules, as the composition root wires it.
    const host = this.moduleRef.get(SubscriptionPaymethods, { strict: false });
    if (host instanceof NoSubscriptionPaymethods) host.use(this);
  }

  async methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null> {
    const sub = await m.findOne(Subscription, { where: { package_id: packageId } });
    if (!sub) return null;
    if (sub.paymethod === 'crd' && sub.creditcard_id) return { creditcard_id: sub.creditcard_id };
    if (sub.paymethod === 'ach' && sub.ach_id) return { ach_id: sub.ach_id };
    if (sub.paymethod === 'tok' && sub.tokenized_id) return { tokenized_id: sub.tokenized_id };
    return null;
  }
}
