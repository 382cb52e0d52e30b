import { EntityManager, In } from 'typeorm';
import { MrrLine, MrrSubscription } from 'src/billing/cycles/mrr-as-of';
import { priceDiscount, priceLine } from 'src/billing/pricing/line-pricing';
import { ZERO } from 'src/core/money/decimal';
import { Item } from 'src/items/entities/item.entity';
import { loadTiersetsById, priceSheetOf } from 'src/items/tierset-loader';
import { SubscriptionLine } from 'src/subscriptions/entities/subscription-line.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';

/** A subscription's MRR facts with whose revenue it is. */
export interface MrrFacts extends MrrSubscription {
  packageId: number;
  customerId: number;
  currencyId: number;
}

/**
 * The MRR facts of these subscriptions as the rows hold them now: subscriptions, their
 * lines, the lines' items and prices, in four queries (five with tiers) whatever their number.
 */
export async function loadMrrFacts(m: EntityManager, packageIds: readonly number[]): Promise<MrrFacts[]> {
  if (packageIds.length === 0) return [];
  const subs = await m.find(Subscription, { where: { package_id: In([...packageIds]) } });
  const lines = subs.length
    ? await m.find(SubscriptionLine, { where: { package_id: In(subs.map((s) => s.package_id)) } })
    : [];
  const itemIds = [...new Set(lines.map((l) => l.item_id))];
  const items = new Map(
    (itemIds.length
      ? await m.find(Item, {
          where: { item_id: In(itemIds) },
          select: { item_id: true, item_type: true, is_usage: true },
        })
      : []
    ).map((i) => [i.item_id, i]),
  );
  const tiersets = await loadTiersetsById(
    m,
    lines.flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
  );
  const linesOf = new Map<number, MrrLine[]>(subs.map((s) => [s.package_id, []]));
  for (const l of lines) {
    const item = items.get(l.item_id);
    const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
    const isDiscount = item?.item_type === 'discount';
    const sheet = tierset ? priceSheetOf(tierset) : undefined;
    linesOf.get(l.package_id)?.push({
      recurring: !!sheet && !item?.is_usage && tierset?.tierset.paycycle !== 'one',
      isDiscount,
      price: (others) =>
        !sheet
          ? ZERO
          : isDiscount
            ? priceDiscount(sheet, l.line_quantity, others).amount
            : priceLine(sheet, l.line_quantity).amount,
      subscribe: l.subscribe_datetime,
      cancel: l.cancel_datetime,
      expire: l.expire_datetime,
      trialEnd: l.trial_end_datetime,
      inTrialInvoices: l.trial_recurs !== null && l.invoices_billed < l.trial_recurs,
      expiredByCount: (l.expire_recurs ?? 0) > 0 && l.invoices_billed >= (l.expire_recurs ?? 0),
    });
  }
  return subs.map((s) => ({
    packageId: s.package_id,
    customerId: s.customer_id,
    currencyId: s.currency_id,
    paycycle: s.paycycle,
    start: s.start_datetime,
    cancelAt: s.package_status_str.startsWith('canceled-') ? (s.cancel_datetime ?? s.mod_datetime) : null,
    expired: s.package_status_str === 'expired-expired',
    suspendFrom: s.suspendfrom_datetime,
    suspendTo: s.suspendto_datetime,
    lines: linesOf.get(s.package_id) ?? [],
  }));
}
