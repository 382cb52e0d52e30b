import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In, IsNull } from 'typeorm';
import { Cycle, cycleAt, cycleNumber } from 'src/billing/cycles/cycle-calendar';
import { billedPeriod, billsSetup, hasExpired, isInTrial } from 'src/billing/cycles/line-billing';
import { priceAtRate, priceLine } from 'src/billing/pricing/line-pricing';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
import { accountDate, addDays } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { Tx } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceDraftLine, InvoiceIssuer } from 'src/invoices/invoice-issuer';
import { PricingCatalog } from 'src/invoices/invoice-line-pricer';
import { Item } from 'src/items/entities/item.entity';
import { LoadedTierset, loadTiersetsById, priceSheetOf } from 'src/items/tierset-loader';
import { BillingCycle } from './entities/billing-cycle.entity';
import { PendingProration } from './entities/pending-proration.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { ProrationCharge } from './subscription-proration';
import { MeteredLine, SubscriptionUsage } from './subscription-usage';

/**
 * Subscription invoices through InvoiceIssuer, in the caller's transaction: the cycle that
 * starts at `next_invoice_datetime` (action `invoice`), and prorations billed at once
 * (`subscribe_prorate_cycle: now`). Lines bill at their own tierset: flat prices as rate ×
 * quantity, other models as their computed amount.
 */
@Injectable()
export class SubscriptionInvoicing {
  constructor(
    private readonly issuer: InvoiceIssuer,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly usage: SubscriptionUsage,
  ) {}

  /**
   * Bills the next cycle (DESIGN §6): recurring lines in advance, usage lines for the cycle
   * that just ended (in arrears), setup once, trial lines free, pending prorations; then
   * moves `next_invoice_datetime` on by one cycle, counts the lines' invoices, expires those
   * that reached `expire_recurs` and writes the cycle's `billing_cycle` key (a second
   * attempt at the same cycle fails on it). Returns the invoice id, or null when the cycle
   * had nothing to bill and `options.allowEmpty` let it pass without an invoice.
   */
  async issueNextCycle(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    options: NextCycleOptions = {},
  ): Promise<number | null> {
    const m = tx.manager;
    if (sub.next_invoice_datetime === null) throw ApiError.badRequest('This subscription has nothing left to bill.');
    const zone = this.wire.timezone;
    const cycle = cycleAt(sub.start_datetime, sub.paycycle, sub.next_invoice_datetime, zone);
    const lines = await this.billableLines(m, sub);
    const { catalog } = options;
    const items = await itemsOf(m, lines, catalog);
    const metered = meteredLines(sub, lines, items, cycle.index, zone);
    const stored = await this.usage.amounts(
      m,
      metered.filter((u) => !options.usage?.has(u.line.line_item_id)),
    );
    const pending = await m.find(PendingProration, { where: { package_id: sub.package_id, invoice_id: IsNull() } });
    const prorated = pending.length
      ? await m.find(SubscriptionLine, { where: { line_item_id: In(pending.map((p) => p.package_line_id)) } })
      : [];
    const tiersets = await loadTiersetsById(
      m,
      [...lines, ...prorated].flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
      catalog?.tiersets,
    );
    const tiersetOf = (l: SubscriptionLine) => (l.tierset_id === null ? undefined : tiersets.get(l.tierset_id));
    const period = { from: cycle.start, to: cycle.end };
    const draftLines: InvoiceDraftLine[] = [];
    for (const l of lines) {
      const tierset = tiersetOf(l);
      if (!items.get(l.item_id)?.is_usage) {
        const origin = isInTrial(history(l), cycle.start) ? 'trial' : 'recurring';
        draftLines.push({ ...priced(l, tierset), origin, period, package_line_id: l.line_item_id, descrip: l.descrip });
      }
      const setup = tierset?.tierset.setup;
      if (billsSetup(history(l)) && setup?.gt(0)) {
        draftLines.push({ origin: 'setup', item_id: l.item_id, line_rate: setup, package_line_id: l.line_item_id });
      }
    }
    for (const u of metered) {
      const id = u.line.line_item_id;
      const usage = options.usage?.get(id) ?? stored.get(id) ?? ZERO;
      draftLines.push({
        ...usagePriced(u.line, tiersetOf(u.line), usage),
        origin: 'usage',
        period: u.period,
        package_line_id: id,
        descrip: u.line.descrip,
      });
    }
    const byId = new Map(prorated.map((l) => [l.line_item_id, l]));
    for (const p of pending) {
      const line = byId.get(p.package_line_id)!;
      draftLines.push(prorationLine(line, tiersets, p.line_prorate.times(p.amount.isNegative() ? -1 : 1)));
    }
    if (draftLines.length === 0 && !options.allowEmpty) {
      throw ApiError.badRequest('This subscription has no line to bill.');
    }
    const invoiceId = draftLines.length
      ? await this.issue(tx, ctx, sub, draftLines, options.date, cycleDates(sub, cycle, zone), catalog)
      : null;

    const now = this.clock.now();
    const next = cycleNumber(sub.start_datetime, sub.paycycle, cycle.index + 1, zone).start;
    await m.update(Subscription, sub.package_id, { next_invoice_datetime: next });
    for (const l of lines) {
      const billed = l.invoices_billed + 1;
      const expired = hasExpired({ ...history(l), invoicesBilled: billed });
      await m.update(SubscriptionLine, l.line_item_id, {
        invoices_billed: billed,
        ...(expired ? { expire_datetime: now } : {}),
      });
    }
    if (pending.length && invoiceId !== null) {
      await m.update(
        PendingProration,
        { package_proration_id: In(pending.map((p) => p.package_proration_id)) },
        { invoice_id: invoiceId },
      );
    }
    await m.insert(BillingCycle, {
      package_id: sub.package_id,
      cycle_start: cycle.start,
      invoice_id: invoiceId,
      write_datetime: now,
    });
    return invoiceId;
  }

  /**
   * The metered lines the cycle at `next_invoice_datetime` bills usage for, with their
   * periods (the cycle that just ended): what a billing run asks USAGE_URL before the unit.
   */
  async meteredLinesOfNextCycle(m: EntityManager, sub: Subscription): Promise<MeteredLine[]> {
    if (sub.next_invoice_datetime === null) return [];
    const zone = this.wire.timezone;
    const cycle = cycleAt(sub.start_datetime, sub.paycycle, sub.next_invoice_datetime, zone);
    const lines = await this.billableLines(m, sub);
    return meteredLines(sub, lines, await itemsOf(m, lines), cycle.index, zone);
  }

  /** Lines not replaced, removed or expired, in order. */
  private async billableLines(m: EntityManager, sub: Subscription): Promise<SubscriptionLine[]> {
    return (
      await m.find(SubscriptionLine, {
        where: { package_id: sub.package_id, cancel_datetime: IsNull(), expire_datetime: IsNull() },
        order: { line_item_id: 'ASC' },
      })
    ).filter((l) => !hasExpired(history(l)));
  }

  /** Prorations billed at once, on an invoice of their own. */
  async issueProrations(tx: Tx, ctx: RequestContext, sub: Subscription, charges: ProrationCharge[]): Promise<number> {
    const tiersets = await loadTiersetsById(
      tx.manager,
      charges.flatMap((c) => (c.line.tierset_id === null ? [] : [c.line.tierset_id])),
    );
    const lines = charges.map((c) =>
      prorationLine(c.line, tiersets, c.amount.isNegative() ? c.fraction.negated() : c.fraction),
    );
    return this.issue(tx, ctx, sub, lines);
  }

  private async issue(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    lines: InvoiceDraftLine[],
    date?: string,
    cycle: Partial<Invoice> = {},
    catalog?: PricingCatalog,
  ): Promise<number> {
    const customer = await tx.manager.findOneOrFail(Customer, { where: { customer_id: sub.customer_id } });
    // A batch's catalog prices the invoice only if it knows every item (a line may be newer).
    const known = catalog && lines.every((l) => catalog.items.has(l.item_id)) ? catalog : undefined;
    return this.issuer.issue(
      tx,
      ctx,
      {
        customer,
        date: date ?? accountDate(this.clock.now(), this.wire.timezone),
        termsId: sub.terms_id,
        currencyId: sub.currency_id,
        packageId: sub.package_id,
        lines,
        fields: { paycycle: sub.paycycle, class_id: sub.class_id, admin_id: sub.admin_id, ...cycle },
      },
      known,
    );
  }
}

function history(l: SubscriptionLine) {
  return {
    subscribed: l.subscribe_datetime,
    trialDays: l.trial_days,
    trialRecurs: l.trial_recurs,
    expireRecurs: l.expire_recurs,
    invoicesBilled: l.invoices_billed,
  };
}

/** The options of one cycle's invoice. */
export interface NextCycleOptions {
  /** The invoice date (account date); default today. */
  date?: string;
  /** Usage pulled from USAGE_URL before the unit, by line id: wins over stored usage. */
  usage?: ReadonlyMap<number, Decimal>;
  /** A cycle with nothing to bill moves on without an invoice (billing runs) instead of a 400. */
  allowEmpty?: boolean;
  /**
   * Items and current tiersets loaded once for a billing run's batch: what it knows is not
   * read again per cycle; anything it lacks (a line added since) is read as without it.
   */
  catalog?: PricingCatalog;
}

async function itemsOf(
  m: EntityManager,
  lines: SubscriptionLine[],
  catalog?: PricingCatalog,
): Promise<Map<number, Item>> {
  const ids = [...new Set(lines.map((l) => l.item_id))];
  if (catalog && ids.every((id) => catalog.items.has(id))) return catalog.items;
  const items = ids.length ? await m.find(Item, { where: { item_id: In(ids) } }) : [];
  return new Map(items.map((i) => [i.item_id, i]));
}

/**
 * Metered lines bill the cycle before `cycleIndex` (none on the first invoice, DESIGN §6),
 * from the line's subscription if that came later; a line subscribed since gets none yet.
 */
function meteredLines(
  sub: Subscription,
  lines: SubscriptionLine[],
  items: Map<number, Item>,
  cycleIndex: number,
  zone: string,
): MeteredLine[] {
  const ended = billedPeriod(sub.start_datetime, sub.paycycle, cycleIndex, 'usage', zone);
  if (!ended) return [];
  return lines.flatMap((line) => {
    const item = items.get(line.item_id);
    if (!item?.is_usage || line.subscribe_datetime >= ended.end) return [];
    const from = line.subscribe_datetime > ended.start ? line.subscribe_datetime : ended.start;
    return [{ line, item, period: { from, to: ended.end } }];
  });
}

/**
 * A usage line priced by its tierset on the period's total (tiers apply to the total):
 * shown as rate × usage when that is the amount, else as the amount for one.
 */
function usagePriced(
  l: SubscriptionLine,
  tierset: LoadedTierset | undefined,
  usage: Decimal,
): Omit<InvoiceDraftLine, 'origin'> {
  if (!tierset) return { item_id: l.item_id, line_quantity: usage, usage };
  const price = priceLine(priceSheetOf(tierset), usage);
  if (priceAtRate(price.rate, usage).amount.eq(price.amount)) {
    return { item_id: l.item_id, line_rate: price.rate, line_quantity: usage, usage };
  }
  return { item_id: l.item_id, line_rate: price.amount, line_quantity: new Decimal(1), usage };
}

/**
 * The invoice's cycle dates (account dates, `to` inclusive): `this` = the cycle start,
 * `post` = the cycle billed in advance, `pre` = the cycle before it (usage in arrears).
 */
function cycleDates(sub: Subscription, cycle: Cycle, zone: string): Partial<Invoice> {
  const day = (at: Date) => accountDate(at, zone);
  const lastDay = (end: Date) => addDays(day(end), -1);
  const before = billedPeriod(sub.start_datetime, sub.paycycle, cycle.index, 'usage', zone);
  return {
    cycle_this_date: day(cycle.start),
    cycle_post_from_date: day(cycle.start),
    cycle_post_to_date: lastDay(cycle.end),
    cycle_pre_from_date: before ? day(before.start) : null,
    cycle_pre_to_date: before ? lastDay(before.end) : null,
  };
}

/** A line at its own price: flat as rate × quantity, other models as their amount for one. */
function priced(l: SubscriptionLine, tierset: LoadedTierset | undefined): Omit<InvoiceDraftLine, 'origin'> {
  if (!tierset) return { item_id: l.item_id, line_quantity: l.line_quantity };
  if (tierset.tierset.pricemodel === 'fla') {
    return { item_id: l.item_id, line_rate: tierset.tierset.base, line_quantity: l.line_quantity };
  }
  const amount = priceLine(priceSheetOf(tierset), l.line_quantity).amount;
  return { item_id: l.item_id, line_rate: amount, line_quantity: new Decimal(1) };
}

function prorationLine(l: SubscriptionLine, tiersets: Map<number, LoadedTierset>, prorate: Decimal): InvoiceDraftLine {
  const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
  return { ...priced(l, tierset), origin: 'proration', prorate, package_line_id: l.line_item_id, descrip: l.descrip };
}
