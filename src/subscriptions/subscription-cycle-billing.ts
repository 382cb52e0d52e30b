import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { RevisionService } from 'src/core/revisions/revision.service';
import { Tx } from 'src/database/unit-of-work';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionEvents } from './subscription-events';
import { NextCycleOptions, SubscriptionInvoicing } from './subscription-invoicing';
import { SubscriptionMrr } from './subscription-mrr';
import { SubscriptionUsage } from './subscription-usage';

/**
 * Billing one cycle of a subscription, as the `invoice` action and billing runs both do
 * it, inside the caller's unit: the invoice (invoice/insert), the subscription's advance
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
    const invoiceId = await this.invoicing.issueNextCycle(tx, ctx, sub, options);
    await this.mrr.refresh(tx.manager, sub.package_id, { sub, tiersets: options.catalog?.tiersets });
    if (invoiceId === null) {
      await this.revisions.record(tx, ctx, 'package', sub.package_id, 'Cycle passed with nothing to bill');
      return null;
    }
    await this.revisions.record(tx, ctx, 'package', sub.package_id, `Invoice ${invoiceId} issued`);
    await this.events.record(tx, ctx, sub.package_id, ['generate'], options.catalog?.tiersets);
    return invoiceId;
  }

  /**
   * Usage of the next cycle's metered lines from the outside source (USAGE_URL), asked
   * before the unit; undefined when stored usage is billed. Throws (a 400) with the reason
   * when it could not be read: the cycle is not billed on a guess.
   */
  async pullUsage(m: EntityManager, sub: Subscription): Promise<ReadonlyMap<number, Decimal> | undefined> {
    if (!this.usage.pulls) return undefined;
    const lines = await this.invoicing.meteredLinesOfNextCycle(m, sub);
    const pulled = await this.usage.pull(sub, lines);
    if (typeof pulled === 'string') throw ApiError.badRequest(`The usage URL gave no usable usage: ${pulled}`);
    return pulled;
  }
}
