import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A stored method named by id (a subscription's or a customer's default). */
export type StoredMethodRef = { creditcard_id: number } | { ach_id: number } | { tokenized_id: number };

/**
 * Payment-method selection step 1 (SPEC "Transactions"): the method of the subscription
 * an invoice came from. The subscriptions module provides the real one.
 */
export abstract class SubscriptionPaymethods {
  abstract methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null>;
}

/** No subscriptions module: step 1 never applies. */
@Injectable()
export class NoSubscriptionPaymethods extends SubscriptionPaymethods {
  methodOf(): Promise<StoredMethodRef | null> {
    return Promise.resolve(null);
  }
}
