import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { monthlyValue } from 'src/billing/cycles/recurring-revenue';
import { priceLine } from 'src/billing/pricing/line-pricing';
import { roundCents, sumMoney, ZERO } from 'src/core/money/decimal';
import { loadTiersetsById, priceSheetOf } from 'src/items/tierset-loader';
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
  async refresh(m: EntityManager, packageId: number): Promise<void> {
    const sub = await m.findOneOrFail(Subscription, { where: { package_id: packageId } });
    await m.update(Subscription, packageId, { mrr: await this.of(m, sub) });
  }

  private async of(m: EntityManager, sub: Subscription) {
    if (isCancelled(sub) || sub.package_status_str !== 'active' || sub.suspendfrom_datetime !== null) return ZERO;
    const lines = await m.find(SubscriptionLine, {
      where: { package_id: sub.package_id, cancel_datetime: IsNull(), expire_datetime: IsNull() },
    });
    const tiersets = await loadTiersetsById(
      m,
      lines.flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
    );
    const perCycle = lines.map((l) => {
      const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
      return tierset ? priceLine(priceSheetOf(tierset), l.line_quantity).amount : ZERO;
    });
    return roundCents(monthlyValue(sumMoney(perCycle), sub.paycycle));
  }
}
