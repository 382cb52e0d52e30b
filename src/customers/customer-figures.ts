import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { ZERO } from 'src/core/money/decimal';

/** A customer's money figures (SPEC "Customer": total, balance, paid, mrr, arr). */
export interface CustomerFigures {
  total: Decimal;
  balance: Decimal;
  paid: Decimal;
  mrr: Decimal;
  arr: Decimal;
}

/**
 * A module that contributes to the figures (invoices add `total`/`balance`, payments
 * `paid`, subscriptions `mrr`/`arr`). It answers for a whole page of customers in a
 * fixed number of queries, never one per customer.
 */
export interface CustomerFiguresSource {
  figuresFor(manager: EntityManager, customerIds: number[]): Promise<Map<number, Partial<CustomerFigures>>>;
}

/** Decides whether a customer's parent may change (rule 2: not once it paid for the customer). */
export type ParentChangeGuard = (manager: EntityManager, customerId: number, currentParentId: number) => Promise<void>;

export const EMPTY_FIGURES: CustomerFigures = { total: ZERO, balance: ZERO, paid: ZERO, mrr: ZERO, arr: ZERO };

/** Where later modules plug their figures and rules into customers. */
@Injectable()
export class CustomerExtensions {
  private readonly sources: CustomerFiguresSource[] = [];
  private readonly parentGuards: ParentChangeGuard[] = [];

  addFiguresSource(source: CustomerFiguresSource): void {
    this.sources.push(source);
  }

  addParentChangeGuard(guard: ParentChangeGuard): void {
    this.parentGuards.push(guard);
  }

  async figuresFor(manager: EntityManager, customerIds: number[]): Promise<Map<number, CustomerFigures>> {
    const result = new Map<number, CustomerFigures>(customerIds.map((id) => [id, { ...EMPTY_FIGURES }]));
    if (customerIds.length === 0) return result;
    for (const source of this.sources) {
      const partial = await source.figuresFor(manager, customerIds);
      for (const [id, figures] of partial) {
        const current = result.get(id);
        if (!current) continue;
        for (const key of Object.keys(figures) as Array<keyof CustomerFigures>) {
          current[key] = current[key].plus(figures[key] ?? ZERO);
        }
      }
    }
    return result;
  }

  async assertParentMayChange(manager: EntityManager, customerId: number, currentParentId: number): Promise<void> {
    for (const guard of this.parentGuards) await guard(manager, customerId, currentParentId);
  }
}
