import { EntityManager, In } from 'typeorm';
import { PriceSheet } from 'src/billing/pricing/price-model';
import { Tier } from './entities/tier.entity';
import { Tierset } from './entities/tierset.entity';

/** A tierset with its tiers in order. */
export interface LoadedTierset {
  tierset: Tierset;
  tiers: Tier[];
}

/** What the pricing module needs of a loaded tierset. */
export function priceSheetOf(loaded: LoadedTierset): PriceSheet {
  const { tierset, tiers } = loaded;
  return {
    pricemodel: tierset.pricemodel,
    base: tierset.base,
    minimum: tierset.minimum,
    percent: tierset.percent,
    tiers: tiers.map((t) => ({ unit_from: t.unit_from, unit_to: t.unit_to, amount: t.amount })),
  };
}

/** The current tiersets of a page of items: two queries (tiersets, tiers), never one per item. */
export async function loadCurrentTiersets(
  manager: EntityManager,
  itemIds: number[],
): Promise<Map<number, LoadedTierset[]>> {
  const result = new Map<number, LoadedTierset[]>(itemIds.map((id) => [id, []]));
  if (itemIds.length === 0) return result;
  const tiersets = await manager.find(Tierset, {
    where: { item_id: In(itemIds), is_current: true },
    order: { tierset_id: 'ASC' },
  });
  for (const loaded of await withTiers(manager, tiersets)) {
    result.get(loaded.tierset.item_id as number)?.push(loaded);
  }
  return result;
}

/**
 * Tiersets by id (a page of invoice lines), with their tiers: two queries, none for those
 * in `loaded` (current tiersets by item, read once for a batch).
 */
export async function loadTiersetsById(
  manager: EntityManager,
  ids: number[],
  loaded?: Map<number, LoadedTierset[]>,
): Promise<Map<number, LoadedTierset>> {
  const result = new Map<number, LoadedTierset>();
  for (const ofItem of loaded?.values() ?? []) for (const t of ofItem) result.set(t.tierset.tierset_id, t);
  const missing = [...new Set(ids)].filter((id) => !result.has(id));
  if (missing.length === 0) return result;
  const tiersets = await manager.find(Tierset, { where: { tierset_id: In(missing) } });
  for (const l of await withTiers(manager, tiersets)) result.set(l.tierset.tierset_id, l);
  return result;
}

async function withTiers(manager: EntityManager, tiersets: Tierset[]): Promise<LoadedTierset[]> {
  if (tiersets.length === 0) return [];
  const tiers = await manager.find(Tier, {
    where: { tierset_id: In(tiersets.map((t) => t.tierset_id)) },
    order: { tier_id: 'ASC' },
  });
  const byTierset = new Map<number, Tier[]>();
  for (const tier of tiers) byTierset.set(tier.tierset_id, [...(byTierset.get(tier.tierset_id) ?? []), tier]);
  return tiersets.map((tierset) => ({ tierset, tiers: byTierset.get(tierset.tierset_id) ?? [] }));
}

/** The tierset to bill in `currencyId`; none when the item has no price in that currency (never another currency's). */
export function tiersetForCurrency(tiersets: LoadedTierset[], currencyId: number): LoadedTierset | undefined {
  return tiersets.find((t) => t.tierset.currency_id === currencyId);
}
