import { Injectable, OnModuleInit } from '@nestjs/common';
import { OutsideUnit } from 'src/database/outside-call-guard';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { pluginClass, pluginMethod, Plugins } from 'src/core/plugins/plugins';
import { Item } from 'src/items/entities/item.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';

/** A metered line of a subscription and the period its usage is billed for (in arrears). */
export interface MeteredLine {
  line: SubscriptionLine;
  item: Item;
  period: { from: Date; to: Date };
}

/** The usage of each line over its period, by line id, read inside the billing unit. */
export type UsageSource = (m: EntityManager, lines: readonly MeteredLine[]) => Promise<Map<number, Decimal>>;

/** Marks the method that reads stored usage (one in the app). */
export const UsageSource = pluginMethod<UsageSource, void>();

/**
 * Usage asked outside the database (USAGE_URL), before the unit: every line's usage, or why
 * it could not be had. Null when no such source is configured (stored usage is billed).
 */
export type UsagePuller = (
  outside: OutsideUnit,
  sub: Subscription,
  lines: readonly MeteredLine[],
) => Promise<{ ok: true; amounts: Map<number, Decimal> } | { ok: false; reason: string }>;

/** A provider that can ask usage outside the database; it is used only while `configured`. */
export interface OutsideUsage {
  readonly configured: boolean;
  pull: UsagePuller;
}

/** Marks the provider that asks usage outside (USAGE_URL). */
export const OutsideUsage = pluginClass<OutsideUsage, void>();

/**
 * Where a cycle's invoice finds the usage of its metered lines (a registry: the usage
 * module, above subscriptions, plugs in the pushed usage records (`@UsageSource()`) and,
 * when USAGE_URL is set, the pull from it (`@OutsideUsage()`)). Pulled usage is asked before the unit and passed to the
 * invoicer, where it wins over stored usage.
 */
@Injectable()
export class SubscriptionUsage implements OnModuleInit {
  private source: UsageSource | null = null;
  private puller: UsagePuller | null = null;

  constructor(private readonly plugins: Plugins) {}

  onModuleInit(): void {
    for (const source of this.plugins.methods(UsageSource)) this.use(source.handler);
    for (const { instance } of this.plugins.classes(OutsideUsage)) {
      if (instance.configured) this.usePuller((outside, sub, lines) => instance.pull(outside, sub, lines));
    }
  }

  use(source: UsageSource): void {
    if (this.source) throw new Error('A usage source is already registered');
    this.source = source;
  }

  /** The outside source (USAGE_URL), registered only when it is configured. */
  usePuller(puller: UsagePuller): void {
    if (this.puller) throw new Error('A usage puller is already registered');
    this.puller = puller;
  }

  /** Whether usage is asked outside the database (USAGE_URL is set). */
  get pulls(): boolean {
    return this.puller !== null;
  }

  /**
   * Usage of `lines` from the outside source, asked before the unit (never inside it);
   * undefined without one. A failure is a reason: the cycle must not be billed on it.
   */
  async pull(
    outside: OutsideUnit,
    sub: Subscription,
    lines: readonly MeteredLine[],
  ): Promise<Map<number, Decimal> | string | undefined> {
    if (!this.puller || lines.length === 0) return undefined;
    const pulled = await this.puller(outside, sub, lines);
    return pulled.ok ? pulled.amounts : pulled.reason;
  }

  /** Without a source every metered line counts no usage. */
  async amounts(m: EntityManager, lines: readonly MeteredLine[]): Promise<Map<number, Decimal>> {
    if (lines.length === 0 || !this.source) return new Map();
    return this.source(m, lines);
  }
}
