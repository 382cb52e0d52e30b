import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, EntityTarget } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { Plugins, pluginMethod } from 'src/core/plugins/plugins';
import { Tx } from 'src/database/unit-of-work';

/**
 * Why a customer cannot be deleted, as the end of "This customer cannot be deleted: ...",
 * or null when the module that owns the objects has no objection.
 */
export type DeletionGuard = (manager: EntityManager, customerId: number) => Promise<string | null>;

/** Marks a method as a deletion guard: the module that owns objects the books need refuses. */
export const CustomerDeletionGuard = pluginMethod<DeletionGuard, void>();

/** The objection while the customer has rows of `entity` (soft-deleted ones do not count). */
export async function refuseWhileCustomerHas(
  manager: EntityManager,
  customerId: number,
  entity: EntityTarget<{ customer_id: number }>,
  noun: string,
): Promise<string | null> {
  const count = await manager.count(entity, { where: { customer_id: customerId } });
  return count > 0 ? `it has ${count} ${noun}(s), which stay on the books` : null;
}

/** Deletes (softly, with revisions and events) what goes with a customer, in its transaction. */
export type DeletionCascade = (tx: Tx, ctx: RequestContext, customerId: number) => Promise<void>;

/** Marks a method as a deletion cascade: what goes with a deleted customer. */
export const CustomerDeletionCascade = pluginMethod<DeletionCascade, void>();

/**
 * Where the modules that own a customer's objects say what its deletion means for them
 * (DESIGN §6 "Customer deletion"): objects the books need (invoices, payments) refuse it,
 * the others (contacts, payment methods) are deleted with it. Found at start:
 * `@CustomerDeletionGuard()` and `@CustomerDeletionCascade()` methods of their providers.
 */
@Injectable()
export class CustomerDeletion implements OnModuleInit {
  private readonly guards: DeletionGuard[] = [];
  private readonly cascades: DeletionCascade[] = [];

  constructor(private readonly plugins: Plugins) {}

  onModuleInit(): void {
    for (const guard of this.plugins.methods(CustomerDeletionGuard)) this.addGuard(guard.handler);
    for (const cascade of this.plugins.methods(CustomerDeletionCascade)) this.addCascade(cascade.handler);
  }

  addGuard(guard: DeletionGuard): void {
    this.guards.push(guard);
  }

  addCascade(cascade: DeletionCascade): void {
    this.cascades.push(cascade);
  }

  /** Every objection, in registration order. */
  async objections(manager: EntityManager, customerId: number): Promise<string[]> {
    const reasons: string[] = [];
    for (const guard of this.guards) {
      const reason = await guard(manager, customerId);
      if (reason !== null) reasons.push(reason);
    }
    return reasons;
  }

  async cascade(tx: Tx, ctx: RequestContext, customerId: number): Promise<void> {
    for (const step of this.cascades) await step(tx, ctx, customerId);
  }
}
