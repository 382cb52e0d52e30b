import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { monthlyValue } from 'src/billing/cycles/recurring-revenue';
import { priceLine } from 'src/billing/pricing/line-pricing';
import { roundCents, sumMoney, ZERO } from 'src/core/money/decimal';
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
    const sub = known.sub ?? (await m.findOneOrFail(Subscription, { where: { package_id: packageId } }));
    const mrr = await this.of(m, sub, known.tiersets);
    if (known.sub && mrr.eq(sub.mrr)) return;
    await m.update(Subscription, packageId, { mrr });
  }

  private async of(m: EntityManager, sub: Subscription, loaded?: Map<number, LoadedTierset[]>) {
    if (isCancelled(sub) || sub.package_status_str !== 'active' || sub.suspendfrom_datetime !== null) return ZERO;
    const lines = await m.find(SubscriptionLine, {
      where: { package_id: sub.package_id, cancel_datetime: IsNull(), expire_datetime: IsNull() },
    });
    const tiersets = await loadTiersetsById(
      m,
      lines.flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
      loaded,
    );
    const perCycle = lines.map((l) => {
      const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
      return tierset ? priceLine(priceSheetOf(tierset), l.line_quantity).amount : ZERO;
    });
    return roundCents(monthlyValue(sumMoney(perCycle), sub.paycycle));
  }
}
