import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { StoredMethodRef, SubscriptionPaymethodSource } from 'src/paymethods/subscription-paymethod-source';
import { Subscription } from './entities/subscription.entity';

/**
 * Step 1 of payment-method selection (SPEC "Transactions"): an invoice from a subscription
 * is paid with the subscription's stored method. Payments and subscriptions may not import
 * each other: payments find this provider by its mark.
 */
@Injectable()
@SubscriptionPaymethodSource()
export class SubscriptionPaymethodLookup implements SubscriptionPaymethodSource {
  async methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null> {
    const sub = await m.findOne(Subscription, { where: { package_id: packageId } });
    if (!sub) return null;
    if (sub.paymethod === 'crd' && sub.creditcard_id) return { creditcard_id: sub.creditcard_id };
    if (sub.paymethod === 'ach' && sub.ach_id) return { ach_id: sub.ach_id };
    if (sub.paymethod === 'tok' && sub.tokenized_id) return { tokenized_id: sub.tokenized_id };
    return null;
  }
}
