import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { Item } from 'src/items/entities/item.entity';
import { loadCurrentTiersets, tiersetForCurrency } from 'src/items/tierset-loader';
import { insertTierset } from 'src/items/tierset-writer';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { SubscriptionLineInput } from './subscription-line-input';

const DAY_MS = 86_400_000;

/**
 * Writes new subscription lines (create and upgrade): each line bills at the item's
 * current price in the subscription's currency, or at a tierset of its own when it sends
 * one. An unknown item, or one without a price in that currency, is a 400 naming the line.
 */
@Injectable()
export class SubscriptionLineWriter {
  async insert(
    m: EntityManager,
    packageId: number,
    currencyId: number,
    lines: SubscriptionLineInput[],
    now: Date,
  ): Promise<SubscriptionLine[]> {
    const itemIds = [...new Set(lines.map((l) => l.item_id!))];
    const items = new Map((await m.find(Item, { where: { item_id: In(itemIds) } })).map((i) => [i.item_id, i]));
    const prices = await loadCurrentTiersets(m, itemIds);
    const written: SubscriptionLine[] = [];
    for (const line of lines) {
      const item = items.get(line.item_id!);
      if (!item) throw ApiError.badRequest(`Field "${line.path}.item_id": no item with id ${line.item_id} exists.`);
      let tiersetId: number | null;
      if (line.tierset_id !== undefined) {
        tiersetId = line.tierset_id;
      } else if (line.tierset) {
        tiersetId = await insertTierset(
          m,
          { ...line.tierset, currency_id: currencyId },
          { itemId: null, isCurrent: false, now },
        );
      } else {
        const price = tiersetForCurrency(prices.get(item.item_id) ?? [], currencyId);
        if (!price) {
          throw ApiError.badRequest(
            `Field "${line.path}.item_id": item ${item.item_id} has no price in currency ${currencyId}; send a "tierset".`,
          );
        }
        tiersetId = price.tierset.tierset_id;
      }
      const subscribed = line.subscribe_datetime ?? now;
      const trialDays = line.trial_days || item.trial_days || 0;
      const row: Partial<SubscriptionLine> = {
        package_id: packageId,
        item_id: item.item_id,
        tierset_id: tiersetId,
        external_key: line.external_key,
        nickname: line.nickname,
        descrip: line.descrip ?? null,
        line_quantity: line.line_quantity,
        trial_days: trialDays,
        trial_recurs: item.trial_recurs,
        trial_end_datetime: trialDays > 0 ? new Date(subscribed.getTime() + trialDays * DAY_MS) : null,
        subscribe_datetime: subscribed,
        expire_recurs: line.expire_recurs ?? item.expire_recurs,
        ...line.custom,
      };
      const inserted = await m.insert(SubscriptionLine, row);
      const id = (inserted.identifiers[0] as { line_item_id: number }).line_item_id;
      written.push(await m.findOneOrFail(SubscriptionLine, { where: { line_item_id: id } }));
    }
    return written;
  }
}
