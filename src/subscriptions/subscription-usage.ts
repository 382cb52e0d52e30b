import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { Item } from 'src/items/entities/item.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';

/** A metered line of a subscription and the period its usage is billed for (in arrears). */
export interface MeteredLine {
  line: SubscriptionLine;
  item: Item;
  period: { from: Date; to: Date };
}

/** The usage of each line over its period, by line id, read inside the billing unit. */
export type UsageSource = (m: EntityManager, lines: readonly MeteredLine[]) => Promise<Map<number, Decimal>>;

/**
 * Where a cycle's invoice finds the usage of its metered lines (a registry: the usage
 * module, above subscriptions, plugs in the pushed usage records). Usage pulled from
 * USAGE_URL before the unit is passed to the invoicer directly and wins over this.
 */
@Injectable()
export class SubscriptionUsage {
  private source: UsageSource | null = null;

  use(source: UsageSource): void {
    if (this.source) throw new Error('A usage source is already registered');
    this.source = source;
  }

  /** Without a source every metered line counts no usage. */
  async amounts(m: EntityManager, lines: readonly MeteredLine[]): Promise<Map<number, Decimal>> {
    if (lines.length === 0 || !this.source) return new Map();
    return this.source(m, lines);
  }
}
