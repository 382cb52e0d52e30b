import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { RevisionService } from 'src/core/revisions/revision.service';
import { Tx } from 'src/database/unit-of-work';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionEvents } from './subscription-events';
import { NextCycleOptions, SubscriptionInvoicing } from './subscription-invoicing';
import { SubscriptionMrr } from './subscription-mrr';
import { MeteredLine } from './subscription-usage';

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
  ) {}

  async billNextCycle(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    options: NextCycleOptions = {},
  ): Promise<number | null> {
    const invoiceId = await this.invoicing.issueNextCycle(tx, ctx, sub, options);
    await this.mrr.refresh(tx.manager, sub.package_id);
    if (invoiceId === null) {
      await this.revisions.record(tx, ctx, 'package', sub.package_id, 'Cycle passed with nothing to bill');
      return null;
    }
    await this.revisions.record(tx, ctx, 'package', sub.package_id, `Invoice ${invoiceId} issued`);
    await this.events.record(tx, ctx, sub.package_id, ['generate']);
    return invoiceId;
  }

  /** The metered lines (and usage periods) the next cycle's invoice will bill. */
  meteredLinesOfNextCycle(m: EntityManager, sub: Subscription): Promise<MeteredLine[]> {
    return this.invoicing.meteredLinesOfNextCycle(m, sub);
  }
}
