import { EntityManager } from 'typeorm';
import { pluginClass } from 'src/core/plugins/plugins';

/** A stored method named by id (a subscription's or a customer's default). */
export type StoredMethodRef = { creditcard_id: number } | { ach_id: number } | { tokenized_id: number };

/**
 * Payment-method selection step 1 (SPEC "Transactions"): the stored method of the
 * subscription an invoice came from. Payments (transactions) ask it and subscriptions
 * answer it, and neither may import the other, so the port lives here, below both.
 */
export interface SubscriptionPaymethodSource {
  methodOf(m: EntityManager, packageId: number): Promise<StoredMethodRef | null>;
}

/** Marks the provider that answers step 1 (one in the app). */
export const SubscriptionPaymethodSource = pluginClass<SubscriptionPaymethodSource, void>();
