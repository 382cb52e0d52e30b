import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In } from 'typeorm';
import { lineTax, priceAtRate, priceLine, priceSetup } from 'src/billing/pricing/line-pricing';
import { PriceSheet } from 'src/billing/pricing/price-model';
import { ApiError } from 'src/core/envelope/api-error';
import { sumMoney, ZERO } from 'src/core/money/decimal';
import { Item } from 'src/items/entities/item.entity';
import { loadCurrentTiersets, loadTiersetsById, priceSheetOf, tiersetForCurrency } from 'src/items/tierset-loader';
import { insertTierset } from 'src/items/tierset-writer';
import { TaxesService } from 'src/taxes/taxes.service';
import { QuoteLine } from './entities/quote-line.entity';
import { Quote } from './entities/quote.entity';
import { DEFAULT_QUANTITY, QuoteLineInput } from './quote-line-input';

/** The stored sums of a quote (read-only `subtotal`, `setup`, `taxes`, `total`, `upfront`). */
export type QuoteSums = Pick<Quote, 'subtotal' | 'setup' | 'taxes' | 'total' | 'upfront'>;

/**
 * Writes a quote's lines and prices them once: each line at its `line_rate`, at a tierset
 * of its own, or at its item's current price in the quote's currency; its setup fee apart;
 * its tax per line (DESIGN §5). `total` is one cycle (lines and their taxes), `upfront`
 * what acceptance bills first (the total plus setup fees and their taxes, as the invoice
 * of a converted quote bills them).
 */
@Injectable()
export class QuoteLineWriter {
  constructor(private readonly taxes: TaxesService) {}

  /**
   * Replaces the quote's lines with `lines` (update: a line named alone is kept, named with
   * fields is repriced with them, not named is removed) and returns the new sums.
   */
  async write(
    m: EntityManager,
    quote: Pick<Quote, 'quote_id' | 'currency_id'>,
    lines: QuoteLineInput[],
    noTaxes: boolean,
    now: Date,
  ): Promise<QuoteSums> {
    const existing = new Map(
      (await m.find(QuoteLine, { where: { quote_id: quote.quote_id } })).map((l) => [l.line_item_id, l]),
    );
    const named = new Set<number>();
    for (const line of lines) {
      if (line.line_item_id === undefined) continue;
      if (!existing.has(line.line_item_id)) {
        throw ApiError.badRequest(
          `Field "${line.path}.line_item_id": line ${line.line_item_id} is not a line of this quote.`,
        );
      }
      if (named.has(line.line_item_id)) {
        throw ApiError.badRequest(
          `Field "${line.path}.line_item_id": line ${line.line_item_id} is named more than once.`,
        );
      }
      named.add(line.line_item_id);
    }
    const itemIds = [...new Set(lines.map((l) => l.item_id ?? existing.get(l.line_item_id!)!.item_id))];
    const items = new Map((await m.find(Item, { where: { item_id: In(itemIds) } })).map((i) => [i.item_id, i]));
    const prices = await loadCurrentTiersets(m, itemIds);
    const kept = await loadTiersetsById(
      m,
      [...existing.values()].flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
    );
    const groupTaxes = await this.taxes.groupTaxes(
      m,
      [...items.values()].flatMap((i) => (i.tax_group_id === null ? [] : [i.tax_group_id])),
    );

    const rows: QuoteLine[] = [];
    /** Tax on each line's setup fee: billed on the first invoice only, so part of `upfront`. */
    const setupTaxes: Decimal[] = [];
    for (const [sort, line] of lines.entries()) {
      const current = line.line_item_id === undefined ? undefined : existing.get(line.line_item_id);
      if (current && line.keep) {
        rows.push({ ...current, sort_order: sort });
        setupTaxes.push(setupTax(current.line_setup, items.get(current.item_id)?.tax_group_id ?? null));
        continue;
      }
      const itemId = line.item_id ?? current!.item_id;
      const item = items.get(itemId);
      if (!item) throw ApiError.badRequest(`Field "${line.path}.item_id": no item with id ${itemId} exists.`);
      let tiersetId: number | null = current && line.item_id === undefined ? current.tierset_id : null;
      const keptPrice = tiersetId === null ? undefined : kept.get(tiersetId);
      let sheet: PriceSheet | undefined = keptPrice && priceSheetOf(keptPrice);
      let setupFee = keptPrice?.tierset.setup ?? ZERO;
      if (line.tierset) {
        const own = { ...line.tierset, currency_id: quote.currency_id };
        tiersetId = await insertTierset(m, own, { itemId: null, isCurrent: false, now });
        sheet = own;
        setupFee = own.setup;
      } else if (!sheet) {
        const price = tiersetForCurrency(prices.get(itemId) ?? [], quote.currency_id);
        tiersetId = price?.tierset.tierset_id ?? null;
        sheet = price && priceSheetOf(price);
        setupFee = price?.tierset.setup ?? ZERO;
      }
      const rate =
        line.line_rate ?? (current && line.item_id === undefined ? (current.line_rate ?? undefined) : undefined);
      if (!sheet && rate === undefined) {
        throw ApiError.badRequest(
          `Field "${line.path}.item_id": item ${itemId} has no price in currency ${quote.currency_id}; send "tierset" or "line_rate".`,
        );
      }
      const quantity = line.line_quantity ?? current?.line_quantity ?? DEFAULT_QUANTITY;
      const subtotal = rate !== undefined ? priceAtRate(rate, quantity).amount : priceLine(sheet!, quantity).amount;
      const setup = priceSetup(setupFee).amount;
      const group = item.tax_group_id === null ? undefined : groupTaxes.get(item.tax_group_id);
      const tax = group && !noTaxes ? lineTax(subtotal, group.tax_rate) : ZERO;
      setupTaxes.push(setupTax(setup, item.tax_group_id));
      const custom: Record<string, string | null> = {};
      for (let n = 1; n <= 20; n++) custom[`custom_${n}`] = current?.[`custom_${n}`] ?? null;
      rows.push({
        ...(current ?? {}),
        ...custom,
        ...line.custom,
        quote_id: quote.quote_id,
        item_id: itemId,
        tierset_id: tiersetId,
        sort_order: sort,
        descrip: line.descrip !== undefined ? line.descrip : (current?.descrip ?? null),
        line_rate: rate ?? null,
        line_quantity: quantity,
        expire_recurs: line.expire_recurs !== undefined ? line.expire_recurs : (current?.expire_recurs ?? null),
        subscribe_prorate_from_datetime:
          line.subscribe_prorate_from_datetime ?? current?.subscribe_prorate_from_datetime ?? null,
        subscribe_prorate_to_datetime:
          line.subscribe_prorate_to_datetime ?? current?.subscribe_prorate_to_datetime ?? null,
        line_subtotal: subtotal,
        line_setup: setup,
        line_tax: tax,
        line_total: subtotal.plus(tax),
      } as QuoteLine);
    }
    if (existing.size) await m.delete(QuoteLine, { quote_id: quote.quote_id });
    await m.insert(QuoteLine, rows);
    return sums(rows, setupTaxes);

    function setupTax(setup: Decimal, groupId: number | null): Decimal {
      const group = groupId === null ? undefined : groupTaxes.get(groupId);
      return group && !noTaxes ? lineTax(setup, group.tax_rate) : ZERO;
    }
  }
}

function sums(rows: QuoteLine[], setupTaxes: Decimal[]): QuoteSums {
  const subtotal = sumMoney(rows.map((r) => r.line_subtotal));
  const setup = sumMoney(rows.map((r) => r.line_setup));
  const taxes = sumMoney(rows.map((r) => r.line_tax));
  const total: Decimal = subtotal.plus(taxes);
  return { subtotal, setup, taxes, total, upfront: total.plus(setup).plus(sumMoney(setupTaxes)) };
}
