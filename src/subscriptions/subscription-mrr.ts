import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In } from 'typeorm';
import { isInTrial, isOneTime } from 'src/billing/cycles/line-billing';
import { countsInMrr, monthlyValue } from 'src/billing/cycles/recurring-revenue';
import { priceDiscount, priceLine } from 'src/billing/pricing/line-pricing';
import { Clock } from 'src/core/clock/clock';
import { groupBy } from 'src/core/collections/group-by';
import { roundCents, sumMoney, ZERO } from 'src/core/money/decimal';
import { plainReader } from 'src/database/entity-reader';
import { updateWhereIn } from 'src/database/update-where-in';
import { Item } from 'src/items/entities/item.entity';
import { LoadedTierset, loadTiersetsById, priceSheetOf } from 'src/items/tierset-loader';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { lineHistory } from './subscription-line-history';
import { isCancelled } from './subscription-status';

/**
 * Keeps `package.mrr` (DESIGN §6 "MRR/ARR"): the sum over its live recurring lines of their
 * price per cycle (each line's own tierset; a discount as on an invoice of those lines)
 * converted to a month (billing/cycles), rounded once to the cent. Metered and one-time
 * lines and setup fees count 0, and so does a line in trial until its trial ends (the
 * nightly `refreshTrialsEnded` and the cycle billed after it bring it in). A cancelled (also
 * at a future date), expired or suspended subscription counts 0: scheduled churn is out of
 * MRR as soon as it is known.
 */
@Injectable()
export class SubscriptionMrr {
  constructor(private readonly clock: Clock) {}

  /**
   * `known`: the subscription as the caller's unit just read it (its status unchanged
   * since) and current tiersets by item read once for a batch; both are read otherwise.
   * An unchanged MRR is not written again.
   */
  async refresh(
    m: EntityManager,
    packageId: number,
    known: { sub?: Subscription; tiersets?: Map<number, LoadedTierset[]> } = {},
  ): Promise<void> {
    if (known.sub) return this.refreshMany(m, [known.sub], known.tiersets);
    const sub = await m.findOneOrFail(Subscription, { where: { package_id: packageId } });
    const [mrr] = await this.of(m, [sub]);
    await m.update(Subscription, packageId, { mrr });
  }

  /**
   * refresh for subscriptions the caller's unit just read (a billing run's batch): their
   * lines read in one query, one UPDATE per distinct new MRR, none where it is unchanged.
   */
  async refreshMany(
    m: EntityManager,
    subs: readonly Subscription[],
    tiersets?: Map<number, LoadedTierset[]>,
  ): Promise<void> {
    const mrrs = await this.of(m, subs, tiersets);
    const changed = subs.flatMap((sub, i) => (mrrs[i].eq(sub.mrr) ? [] : [{ id: sub.package_id, mrr: mrrs[i] }]));
    const byMrr = groupBy(changed, (c) => c.mrr.toFixed()); // stop-check: deliberate, decimal.js value as a group key
    for (const [mrr, ofMrr] of byMrr) {
      await updateWhereIn(
        m,
        Subscription,
        'package_id',
        ofMrr.map((c) => c.id),
        { mrr: new Decimal(mrr) },
      );
    }
  }

  private async of(m: EntityManager, subs: readonly Subscription[], loaded?: Map<number, LoadedTierset[]>) {
    const counted = subs.filter(
      (sub) => !(isCancelled(sub) || sub.package_status_str !== 'active' || sub.suspendfrom_datetime !== null),
    );
    const lines = counted.length
      ? await plainReader(m, SubscriptionLine).many(m, {
          where: 'e.package_id IN (:...ids) AND e.cancel_datetime IS NULL AND e.expire_datetime IS NULL',
          params: { ids: counted.map((s) => s.package_id) },
        })
      : [];
    const tiersets = await loadTiersetsById(
      m,
      lines.flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
      loaded,
    );
    const itemIds = [...new Set(lines.map((l) => l.item_id))];
    const items = new Map(
      (itemIds.length ? await m.find(Item, { where: { item_id: In(itemIds) } }) : []).map((i) => [i.item_id, i]),
    );
    const now = this.clock.now();
    const recurring = groupBy(
      lines.flatMap((l) => {
        const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
        const item = items.get(l.item_id);
        const counts = countsInMrr({
          metered: item?.is_usage ?? false,
          oneTime: isOneTime(tierset?.tierset.paycycle),
          inTrial: isInTrial(lineHistory(l), now),
        });
        return tierset && item && counts ? [{ line: l, tierset, discount: item.item_type === 'discount' }] : [];
      }),
      (c) => c.line.package_id,
    );
    const countedIds = new Set(counted.map((sub) => sub.package_id));
    return subs.map((sub) => {
      if (!countedIds.has(sub.package_id)) return ZERO;
      const ofSub = recurring.get(sub.package_id) ?? [];
      const charges = ofSub
        .filter((c) => !c.discount)
        .map((c) => priceLine(priceSheetOf(c.tierset), c.line.line_quantity).amount);
      const chargesSum = sumMoney(charges);
      // Discounts as on the invoice of these lines (the pricer's rule): percent of the others, or minus base.
      const discounts = ofSub
        .filter((c) => c.discount)
        .map((c) => priceDiscount(priceSheetOf(c.tierset), c.line.line_quantity, chargesSum).amount);
      return roundCents(monthlyValue(sumMoney([chargesSum, ...discounts]), sub.paycycle));
    });
  }

  /**
   * The nightly part of "counts zero until its trial ends": subscriptions with a line whose
   * trial days ended in the last `withinDays` days have their MRR recomputed (an unchanged one
   * is not written). Returns how many were read.
   */
  async refreshTrialsEnded(m: EntityManager, withinDays = 2): Promise<number> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - withinDays * 86_400_000);
    const subs = await m
      .createQueryBuilder(Subscription, 'p')
      .where(
        `EXISTS (SELECT 1 FROM package_line tl WHERE tl.package_id = p.package_id AND tl.cancel_datetime IS NULL
          AND tl.trial_end_datetime > :since AND tl.trial_end_datetime <= :now)`,
        { since, now },
      )
      .getMany();
    await this.refreshMany(m, subs);
    return subs.length;
  }
}
