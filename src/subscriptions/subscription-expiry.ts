import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { hasEnded } from 'src/billing/cycles/line-billing';
import { Clock } from 'src/core/clock/clock';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { RevisionService } from 'src/core/revisions/revision.service';
import { NightlyTask } from 'src/core/schedule/nightly-tasks';
import { UnitOfWork } from 'src/database/unit-of-work';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionEndings } from './subscription-endings';
import { SubscriptionEvents } from './subscription-events';
import { SubscriptionMrr } from './subscription-mrr';
import { allLinesEndedSql } from './subscription-status';

/** Subscriptions handled per transaction, as the nightly job's own batches. */
const BATCH = 200;

/**
 * Part of the nightly job: an active subscription whose live lines have all ended
 * (`hasEnded`: `expire_datetime` passed or `expire_recurs` reached) becomes
 * `expired-expired`, with nothing left to bill and one package/status event; the usage of
 * its last cycle goes on a final invoice when that cycle ends (SubscriptionEndings).
 */
@Injectable()
export class SubscriptionExpiry {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly events: SubscriptionEvents,
    private readonly mrr: SubscriptionMrr,
    private readonly revisions: RevisionService,
    private readonly endings: SubscriptionEndings,
  ) {}

  /** How many subscriptions expired. */
  @NightlyTask('subscription expiry')
  async expireEnded(): Promise<number> {
    const now = this.clock.now();
    let expired = 0;
    let afterId = 0;
    for (;;) {
      const ids = (
        await this.dataSource
          .getRepository(Subscription)
          .createQueryBuilder('p')
          .select('p.package_id', 'id')
          .where("p.package_status_str = 'active' AND p.package_id > :afterId", { afterId, now })
          .andWhere(allLinesEndedSql('p', ':now'))
          .orderBy('p.package_id', 'ASC')
          .limit(BATCH)
          .getRawMany<{ id: number | string }>()
      ).map((row) => Number(row.id));
      if (ids.length === 0) return expired;
      afterId = ids[ids.length - 1];
      expired += await this.uow.run(async (tx) => {
        let count = 0;
        for (const id of ids) {
          // Checked again in the transaction: a line added or an action taken since the page was read wins.
          const lines = await tx.manager.find(SubscriptionLine, {
            where: { package_id: id, cancel_datetime: IsNull() },
          });
          const ended = lines.every((l) =>
            hasEnded({ expireRecurs: l.expire_recurs, invoicesBilled: l.invoices_billed }, l.expire_datetime, now),
          );
          if (lines.length === 0 || !ended) continue;
          const sub = await tx.manager.findOneByOrFail(Subscription, { package_id: id });
          const updated = await tx.manager.update(
            Subscription,
            { package_id: id, package_status_str: 'active' },
            { package_status_str: 'expired-expired', next_invoice_datetime: null },
          );
          if (!updated.affected) continue;
          if (sub.next_invoice_datetime !== null) {
            // The usage of the last cycle billed goes on a final invoice when that cycle ends.
            await this.endings.schedule(tx, SYSTEM_CONTEXT, sub, sub.next_invoice_datetime, {
              cancelProrate: false,
              usageFrom: this.endings.lastCycleStart(sub),
            });
          }
          await this.mrr.refresh(tx.manager, id);
          await this.revisions.record(tx, SYSTEM_CONTEXT, 'package', id, 'Subscription expired: every line has ended');
          await this.events.record(tx, SYSTEM_CONTEXT, id, ['status']);
          count++;
        }
        return count;
      });
    }
  }

  /** MRR counts a line in trial from the day its trial ends (DESIGN §6 "MRR/ARR"). */
  @NightlyTask('subscription trial MRR')
  refreshTrialsEnded(): Promise<number> {
    return this.uow.run((tx) => this.mrr.refreshTrialsEnded(tx.manager));
  }
}
