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
 * The provider payments use. The subscriptions module sits above payments, so it hands its
 * lookup over at start (`use`); until it does (or without it), step 1 never applies.
 */
@Injectable()
export class NoSubscriptionPaymethods extends SubscriptionPaymethods {
  private source: SubscriptionPaymethods | null = null;

  use(source: SubscriptionPaymethods): void {
    this.source = source;
  }

  methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null> {
    return this.source ? this.source.methodOf(m, packageId) : Promise.resolve(null);
  }
}
