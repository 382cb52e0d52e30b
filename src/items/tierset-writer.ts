import { EntityManager } from 'typeorm';
import { Tier } from './entities/tier.entity';
import { Tierset } from './entities/tierset.entity';
import { TiersetInput } from './tierset-input';

/**
 * Writes one tierset with its tiers and returns its id. An item's price is `current`; a
 * price of its own on a subscription line belongs to no item's list (`item_id` null).
 */
export async function insertTierset(
  m: EntityManager,
  t: TiersetInput,
  owner: { itemId: number | null; isCurrent: boolean; now: Date },
): Promise<number> {
  const inserted = await m.insert(Tierset, {
    item_id: owner.itemId,
    is_current: owner.isCurrent,
    currency_id: t.currency_id,
    setup: t.setup,
    base: t.base,
    minimum: t.minimum,
    percent: t.percent,
    paycycle: t.paycycle,
    pricemodel: t.pricemodel,
    write_datetime: owner.now,
    mod_datetime: owner.now,
  });
  const tiersetId = (inserted.identifiers[0] as { tierset_id: number }).tierset_id;
  if (t.tiers.length > 0) {
    await m.insert(
      Tier,
      t.tiers.map((tier) => ({ tierset_id: tiersetId, ...tier })),
    );
  }
  return tiersetId;
}
