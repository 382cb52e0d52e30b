import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/**
 * Which customers had activity (an active subscription, invoice, transaction or quote)
 * on or after a date: SPEC's condition for customer/nightly. Each module that owns such
 * objects adds a source; the answer is their union.
 */
export type CustomerActivitySource = (manager: EntityManager, sinceDate: string) => Promise<number[]>;

@Injectable()
export class CustomerActivity {
  private readonly sources: CustomerActivitySource[] = [];

  addSource(source: CustomerActivitySource): void {
    this.sources.push(source);
  }

  async activeSince(manager: EntityManager, sinceDate: string): Promise<number[]> {
    const ids = new Set<number>();
    for (const source of this.sources) for (const id of await source(manager, sinceDate)) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  }
}
