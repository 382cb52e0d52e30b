import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { RevisionService } from 'src/core/revisions/revision.service';
import { Tx } from 'src/database/unit-of-work';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionEvents } from './subscription-events';
import { CycleBatchOptions, CycleToBill, NextCycleOptions, SubscriptionInvoicing } from './subscription-invoicing';
import { SubscriptionMrr } from './subscription-mrr';
import { SubscriptionUsage } from './subscription-usage';

/**
 * Billing the next cycle of subscriptions, as the `invoice` action (one) and billing runs (a
 * batch) both do it, inside the caller's unit: the invoice (invoice/insert), the subscription's advance
 * and MRR, a revision and package/generate.
 */
@Injectable()
export class SubscriptionCycleBilling {
  constructor(
    private readonly invoicing: SubscriptionInvoicing,
    private readonly mrr: SubscriptionMrr,
    private readonly revisions: RevisionService,
    private readonly events: SubscriptionEvents,
    private readonly usage: SubscriptionUsage,
  ) {}

  async billNextCycle(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    options: NextCycleOptions = {},
  ): Promise<number | null> {
    const { date, usage, ...batch } = options;
    return (await this.billNextCycles(tx, ctx, [{ sub, date, usage }], batch))[0];
  }

  /**
   * The next cycle of each subscription (read under its row lock), at once: a billing run's
   * batch, or the `invoice` action's one. The events come after all the batch's writes:
   * every invoice/insert (InvoiceIssuer.issueMany), then every package/generate. For one
   * subscription its invoice/insert still comes before its package/generate, but the events
   * of different subscriptions of a batch are grouped by kind, not by subscription.
   */
  async billNextCycles(
    tx: Tx,
    ctx: RequestContext,
    cycles: readonly CycleToBill[],
    options: CycleBatchOptions = {},
  ): Promise<Array<number | null>> {
    const invoiceIds = await this.invoicing.issueNextCycles(tx, ctx, cycles, options);
    const tiersets = options.catalog?.tiersets;
    await this.mrr.refreshMany(
      tx.manager,
      cycles.map((c) => c.sub),
      tiersets,
    );
    for (const [i, { sub }] of cycles.entries()) {
      const invoiceId = invoiceIds[i];
      const note = invoiceId === null ? 'Cycle passed with nothing to bill' : `Invoice ${invoiceId} issued`;
      await this.revisions.record(tx, ctx, 'package', sub.package_id, note);
    }
    const invoiced = cycles.flatMap((c, i) => (invoiceIds[i] === null ? [] : [c.sub.package_id]));
    if (invoiced.length) await this.events.recordMany(tx, ctx, invoiced, ['generate'], tiersets);
    return invoiceIds;
  }

  /**
   * Usage of the next cycle's metered lines from the outside source (USAGE_URL), asked
   * before the unit; undefined when stored usage is billed. Throws (a 400) with the reason
   * when it could not be read: the cycle is not billed on a guess.
   */
  async pullUsage(m: EntityManager, sub: Subscription): Promise<ReadonlyMap<number, Decimal> | undefined> {
    if (!this.usage.pulls) return undefined;
    const lines = await this.invoicing.meteredLinesOfNextCycle(m, sub);
    const pulled = await this.usage.pull(outsideUnit('usage asked of USAGE_URL'), sub, lines);
    if (typeof pulled === 'string') throw ApiError.badRequest(`The usage URL gave no usable usage: ${pulled}`);
    return pulled;
  }
}
