import { Injectable, Logger } from '@nestjs/common';
import { DataSource, IsNull, LessThanOrEqual, MoreThan } from 'typeorm';
import { cycleAt, cycleBefore } from 'src/billing/cycles/cycle-calendar';
import { Clock } from 'src/core/clock/clock';
import { RequestContext, SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DueWork } from 'src/core/schedule/due-work';
import { WireFormat } from 'src/core/wire/wire-format';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { SubscriptionEnding } from './entities/subscription-ending.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionInvoicing } from './subscription-invoicing';
import { lockedSubscriptionByRef } from './subscription-lock';
import { SubscriptionProration } from './subscription-proration';

/**
 * The end of a cancelled subscription (DESIGN §6 "Cancellation"), once: with
 * `cancel_prorate` the unused part of the billed cycle holding the end is credited (a
 * credit memo, or on the final invoice's charges), and the usage of its metered lines
 * since the last cycle start goes on a final invoice. An immediate cancel ends in its own
 * unit; a future `cancel_date` ends when it comes, as due work (the test clock steps to it).
 */
@Injectable()
@DueWork()
export class SubscriptionEndings implements DueWork {
  readonly name = 'subscription.endings';
  readonly trigger = { kind: 'billing-cron' } as const;
  private readonly logger = new Logger('SubscriptionEndings');

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly proration: SubscriptionProration,
    private readonly invoicing: SubscriptionInvoicing,
    private readonly revisions: RevisionService,
  ) {}

  /**
   * Records the end of `sub` at `at`; ends it at once when `at` is now (in the caller's
   * unit). `usageFrom`: where its final usage starts (an expiry); by default the start of
   * the last cycle billed when it ends.
   */
  async schedule(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    at: Date,
    options: { cancelProrate: boolean; usageFrom?: Date },
  ): Promise<void> {
    const now = this.clock.now();
    // One end per subscription: an expired one cancelled afterwards has ended already.
    if (await tx.manager.existsBy(SubscriptionEnding, { package_id: sub.package_id })) return;
    await tx.manager.insert(SubscriptionEnding, {
      package_id: sub.package_id,
      end_datetime: at,
      cancel_prorate: options.cancelProrate,
      usage_from: options.usageFrom ?? null,
      finished_datetime: null,
      invoice_id: null,
      write_datetime: now,
    });
    if (at.getTime() <= now.getTime()) await this.finish(tx, ctx, sub);
  }

  /** Ends every subscription whose end has come as of `asOf`, each in a unit of its own. */
  async runDue(asOf: Date): Promise<void> {
    const due = await this.dataSource.manager.find(SubscriptionEnding, {
      select: { package_id: true },
      where: { finished_datetime: IsNull(), end_datetime: LessThanOrEqual(asOf) },
      order: { end_datetime: 'ASC', package_id: 'ASC' },
    });
    for (const { package_id } of due) {
      try {
        await this.uow.run(async (tx) => {
          const sub = await lockedSubscriptionByRef(tx, String(package_id));
          await this.finish(tx, SYSTEM_CONTEXT, sub);
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.error(`Subscription ${package_id} not ended as of ${asOf.toISOString()}: ${reason}`);
      }
    }
  }

  async nextDueAfter(after: Date): Promise<Date | null> {
    const next = await this.dataSource.manager.findOne(SubscriptionEnding, {
      select: { end_datetime: true },
      where: { finished_datetime: IsNull(), end_datetime: MoreThan(after) },
      order: { end_datetime: 'ASC' },
    });
    return next?.end_datetime ?? null;
  }

  /**
   * The credit and the final invoice of `sub` (locked by the caller), unless its end was
   * finished already (read again under the lock: a second attempt does nothing).
   */
  private async finish(tx: Tx, ctx: RequestContext, sub: Subscription): Promise<void> {
    const m = tx.manager;
    const ending = await m.findOneBy(SubscriptionEnding, { package_id: sub.package_id });
    if (!ending || ending.finished_datetime !== null) return;
    const at = ending.end_datetime;
    const cycle = ending.cancel_prorate ? this.proration.billedCycle(sub, at) : null;
    if (cycle) {
      // Which lines are credited (not metered lines, billed in arrears; not one-time lines; not
      // lines free in trial on the cycle) is the proration's rule (SubscriptionProration.charges).
      const live = await m.find(SubscriptionLine, { where: { package_id: sub.package_id, cancel_datetime: IsNull() } });
      const charges = await this.proration.charges(
        m,
        cycle,
        at,
        live.map((line) => ({ line, sign: -1 as const })),
      );
      const due = charges.filter((c) => !c.amount.isZero());
      if (due.length) await this.invoicing.issueProrations(tx, ctx, sub, due);
    }
    const from = ending.usage_from ?? this.lastCycleStart(sub);
    // An expired subscription's lines have all ended: its final usage is theirs.
    const expired = ending.usage_from !== null;
    const invoiceId = await this.invoicing.issueFinalUsage(tx, ctx, sub, { from, until: at, expired });
    const now = this.clock.now();
    await m.update(SubscriptionEnding, ending.package_ending_id, { finished_datetime: now, invoice_id: invoiceId });
    await m.update(Subscription, sub.package_id, { next_invoice_datetime: null });
    const note = invoiceId === null ? 'Subscription ended' : `Subscription ended: final invoice ${invoiceId}`;
    await this.revisions.record(tx, ctx, 'package', sub.package_id, note);
  }

  /** The start of the last cycle billed (usage since then is unbilled), or the start. */
  lastCycleStart(sub: Pick<Subscription, 'start_datetime' | 'paycycle' | 'next_invoice_datetime'>): Date {
    if (sub.next_invoice_datetime === null) return sub.start_datetime;
    const zone = this.wire.timezone;
    const next = cycleAt(sub.start_datetime, sub.paycycle, sub.next_invoice_datetime, zone);
    return cycleBefore(sub.start_datetime, sub.paycycle, next, zone)?.start ?? sub.start_datetime;
  }
}
