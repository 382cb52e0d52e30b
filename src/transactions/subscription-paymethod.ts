import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** A stored method named by id (a subscription's or a customer's default). */
export type StoredMethodRef = { creditcard_id: number } | { ach_id: number } | { tokenized_id: number };

/**
 * Payment-method selection step 1 (SPEC "Transactions"): the method of the subscription
 * an invoice came from.
 */
export abstract class SubscriptionPaymethods {
  abstract methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null>;
}

/**
 * The provider payments use. Payments and subscriptions may not import each other, so the
 * composition root hands the subscriptions module's lookup over at start (`use`); without
 * it, step 1 never applies.
 */
@Injectable()
export class NoSubscriptionPaymethods extends SubscriptionPaymethods {
  private source: Pick<SubscriptionPaymethods, 'methodOf'> | null = null;

  use(source: Pick<SubscriptionPaymethods, 'methodOf'>): void {
    this.source = source;
  }

  methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null> {
    return this.source ? this.source.methodOf(m, packageId) : Promise.resolve(null);
  }
}
