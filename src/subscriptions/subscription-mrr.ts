import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { monthlyValue } from 'src/billing/cycles/recurring-revenue';
import { priceLine } from 'src/billing/pricing/line-pricing';
import { groupBy } from 'src/core/collections/group-by';
import { roundCents, sumMoney, ZERO } from 'src/core/money/decimal';
import { plainReader } from 'src/database/entity-reader';
import { updateWhereIn } from 'src/database/update-where-in';
import { LoadedTierset, loadTiersetsById, priceSheetOf } from 'src/items/tierset-loader';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { isCancelled } from './subscription-status';

/**
 * Keeps `package.mrr`: the sum over its live lines of price per cycle converted to a month
 * (billing/cycles), rounded once to the cent. A cancelled (also at a future date), expired
 * or suspended subscription counts 0: scheduled churn is out of MRR as soon as it is known.
 */
@Injectable()
export class SubscriptionMrr {
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
    for (const [mrr, ofMrr] of groupBy(changed, (c) => c.mrr.toFixed())) {
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
    const perCycle = new Map<number, Decimal[]>(counted.map((s) => [s.package_id, []]));
    for (const l of lines) {
      const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
      perCycle.get(l.package_id)?.push(tierset ? priceLine(priceSheetOf(tierset), l.line_quantity).amount : ZERO);
    }
    return subs.map((sub) => {
      const prices = perCycle.get(sub.package_id);
      return prices ? roundCents(monthlyValue(sumMoney(prices), sub.paycycle)) : ZERO;
    });
  }
}
