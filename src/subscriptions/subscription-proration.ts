import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In } from 'typeorm';
import { Cycle, cycleAt } from 'src/billing/cycles/cycle-calendar';
import { isInTrial } from 'src/billing/cycles/line-billing';
import { isProrated, proratedAmount, prorationFraction } from 'src/billing/cycles/proration';
import { priceLine } from 'src/billing/pricing/line-pricing';
import { Item } from 'src/items/entities/item.entity';
import { loadTiersetsById, priceSheetOf } from 'src/items/tierset-loader';
import { WireFormat } from 'src/core/wire/wire-format';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { lineHistory } from './subscription-line-history';

/** One prorated charge (a new line) or credit (a removed line, negative). */
export interface ProrationCharge {
  line: SubscriptionLine;
  fraction: Decimal;
  /** The line's full price for one cycle. */
  price: Decimal;
  amount: Decimal;
  cycle: Cycle;
}

/**
 * Prorations of a line change (DESIGN §6 "Cycle and proration rules"): the part of the
 * cycle holding `at` that is left, priced at each line's price per cycle. Only a cycle
 * that was already billed in advance is prorated: when the next invoice is still to bill
 * the current cycle, it bills the new lines in full and the removed ones not at all.
 */
@Injectable()
export class SubscriptionProration {
  constructor(private readonly wire: WireFormat) {}

  /** The billed cycle holding `at`, or null when there is none to prorate. */
  billedCycle(sub: Subscription, at: Date): Cycle | null {
    const cycle = cycleAt(sub.start_datetime, sub.paycycle, at, this.wire.timezone);
    const billedUntil = sub.next_invoice_datetime;
    if (at < sub.start_datetime || billedUntil === null || billedUntil <= cycle.start) return null;
    return cycle;
  }

  async charges(
    m: EntityManager,
    cycle: Cycle,
    at: Date,
    lines: Array<{ line: SubscriptionLine; sign: 1 | -1 }>,
  ): Promise<ProrationCharge[]> {
    if (lines.length === 0) return [];
    const tiersets = await loadTiersetsById(
      m,
      lines.flatMap(({ line }) => (line.tierset_id === null ? [] : [line.tierset_id])),
    );
    const itemIds = [...new Set(lines.map(({ line }) => line.item_id))];
    const metered = new Set(
      (await m.find(Item, { where: { item_id: In(itemIds), is_usage: true }, select: { item_id: true } })).map(
        (i) => i.item_id,
      ),
    );
    // Metered and one-time lines are never prorated (billing/cycles/proration.ts `isProrated`),
    // nor is a line free in trial on the cycle: nothing was billed for it, nothing is owed.
    const prorated = lines.filter(
      ({ line, sign }) =>
        isProrated({
          metered: metered.has(line.item_id),
          tiersetPaycycle: line.tierset_id === null ? null : tiersets.get(line.tierset_id)?.tierset.paycycle,
        }) && !freeInTrial(line, sign, cycle),
    );
    const fraction = prorationFraction(cycle, at, this.wire.timezone);
    return prorated.map(({ line, sign }) => {
      const tierset = line.tierset_id === null ? undefined : tiersets.get(line.tierset_id);
      const price = tierset ? priceLine(priceSheetOf(tierset), line.line_quantity).amount : new Decimal(0);
      return { line, fraction, price, amount: proratedAmount(price.times(sign), fraction), cycle };
    });
  }
}

/**
 * Whether the line is free in trial on `cycle`: a removed line (`sign` −1) was counted on
 * the cycle's invoice already (`invoices_billed` includes it), a new one (+1) was not.
 */
function freeInTrial(line: SubscriptionLine, sign: 1 | -1, cycle: Cycle): boolean {
  const history = lineHistory(line);
  const before = sign === -1 ? Math.max(0, history.invoicesBilled - 1) : history.invoicesBilled;
  return isInTrial({ ...history, invoicesBilled: before }, cycle.start);
}
