import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Subscription } from './entities/subscription.entity';

/** A stored method named by id, as payment-method selection takes it. */
export type SubscriptionMethodRef = { creditcard_id: number } | { ach_id: number } | { tokenized_id: number };

/**
 * Step 1 of payment-method selection (SPEC "Transactions"): an invoice from a subscription
 * is paid with the subscription's stored method. Payments and subscriptions may not import
 * each other, so the composition root hands this to the payments hook at start.
 */
@Injectable()
export class SubscriptionPaymethodLookup {
  async methodOf(m: EntityManager, packageId: number): Promise<SubscriptionMethodRef | null> {
    const sub = await m.findOne(Subscription, { where: { package_id: packageId } });
    if (!sub) return null;
    if (sub.paymethod === 'crd' && sub.creditcard_id) return { creditcard_id: sub.creditcard_id };
    if (sub.paymethod === 'ach' && sub.ach_id) return { ach_id: sub.ach_id };
    if (sub.paymethod === 'tok' && sub.tokenized_id) return { tokenized_id: sub.tokenized_id };
    return null;
  }
}
