import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In, IsNull } from 'typeorm';
import { Cycle, cycleAt, cycleBefore } from 'src/billing/cycles/cycle-calendar';
import { billsPrice, billsSetup, hasExpired, isInTrial, usagePeriod } from 'src/billing/cycles/line-billing';
import { groupBy } from 'src/core/collections/group-by';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
import { accountDate, accountMidnight, addDays } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { plainReader } from 'src/database/entity-reader';
import { updateWhereIn } from 'src/database/update-where-in';
import { Tx } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { insertRows, insertRuns } from 'src/database/insert-row';
import { InvoiceDraftLine, InvoiceIssuer } from 'src/invoices/invoice-issuer';
import { PricingCatalog } from 'src/invoices/invoice-line-pricer';
import { Item } from 'src/items/entities/item.entity';
import { LoadedTierset, loadTiersetsById } from 'src/items/tierset-loader';
import { BillingCycle } from './entities/billing-cycle.entity';
import { PendingProration } from './entities/pending-proration.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { ProrationCharge } from './subscription-proration';
import { lineHistory as history } from './subscription-line-history';
import { MeteredLine, SubscriptionUsage } from './subscription-usage';

/**
 * Subscription invoices through InvoiceIssuer, in the caller's transaction: the cycle that
 * starts at `next_invoice_datetime` (action `invoice`), and prorations billed at once
 * (`subscribe_prorate_cycle: now`). Lines bill at their own tierset, priced and shown as the
 * same item and quantity at that price on a one-off invoice (one code path: the pricer).
 */
@Injectable()
export class SubscriptionInvoicing {
  constructor(
    private readonly issuer: InvoiceIssuer,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly usage: SubscriptionUsage,
  ) {}

  /** The next cycle of one subscription (action `invoice`): issueNextCycles with a batch of one. */
  async issueNextCycle(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    options: NextCycleOptions = {},
  ): Promise<number | null> {
    const { date, usage, ...batch } = options;
    return (await this.issueNextCycles(tx, ctx, [{ sub, date, usage }], batch))[0];
  }

  /**
   * Bills the next cycle of each subscription (DESIGN §6), read under its row lock by the
   * caller: recurring lines in advance, usage lines for the cycle that just ended (in
   * arrears), setup once, trial lines free, pending prorations; then moves
   * `next_invoice_datetime` on by one cycle, counts the lines' invoices, expires those that
   * reached `expire_recurs` and writes the cycle's `billing_cycle` key (a second attempt at
   * the same cycle fails on it). Returns each cycle's invoice id, or null when the cycle had
   * nothing to bill and `options.allowEmpty` let it pass without an invoice.
   *
   * A billing run's batch goes through here at once: the lines, stored usage, pending
   * prorations and customers are read once for all, the drafts built in memory, and the
   * writes are set-based (one UPDATE per distinct next cycle start, the rest a fixed number
   * of statements), so a batch costs the same few statements however many cycles it holds.
   */
  async issueNextCycles(
    tx: Tx,
    ctx: RequestContext,
    cycles: readonly CycleToBill[],
    options: CycleBatchOptions = {},
  ): Promise<Array<number | null>> {
    if (cycles.length === 0) return [];
    const m = tx.manager;
    const zone = this.wire.timezone;
    const { catalog } = options;
    const linesBySub = await this.billableLinesOf(
      m,
      cycles.map((c) => c.sub.package_id),
    );
    const allLines = [...linesBySub.values()].flat();
    const items = await itemsOf(m, allLines, catalog);
    const planned = cycles.map(({ sub, date, usage }) => {
      if (sub.next_invoice_datetime === null) throw ApiError.badRequest('This subscription has nothing left to bill.');
      const cycle = cycleAt(sub.start_datetime, sub.paycycle, sub.next_invoice_datetime, zone);
      const before = cycleBefore(sub.start_datetime, sub.paycycle, cycle, zone);
      const lines = linesBySub.get(sub.package_id) ?? [];
      return { sub, date, usage, cycle, before, lines, metered: meteredLines(lines, items, before, zone) };
    });
    const stored = await this.usage.amounts(
      m,
      planned.flatMap((p) => p.metered.filter((u) => !p.usage?.has(u.line.line_item_id))),
    );
    const pending = await plainReader(m, PendingProration).many(m, {
      where: 'e.package_id IN (:...ids) AND e.invoice_id IS NULL',
      params: { ids: cycles.map((c) => c.sub.package_id) },
      tail: 'ORDER BY e.package_proration_id ASC',
    });
    const prorated = pending.length
      ? await plainReader(m, SubscriptionLine).many(m, {
          where: 'e.line_item_id IN (:...ids)',
          params: { ids: pending.map((p) => p.package_line_id) },
        })
      : [];
    const tiersets = await loadTiersetsById(
      m,
      [...allLines, ...prorated].flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
      catalog?.tiersets,
    );
    const proratedById = new Map(prorated.map((l) => [l.line_item_id, l]));
    const pendingOf = groupBy(pending, (p) => p.package_id);
    const drafts = planned.map((p) => [
      ...draftLinesOf(p, tiersets, items, stored),
      ...(pendingOf.get(p.sub.package_id) ?? []).map((pr) =>
        prorationLine(
          proratedById.get(pr.package_line_id)!,
          tiersets,
          pr.line_prorate.times(pr.amount.isNegative() ? -1 : 1),
        ),
      ),
    ]);
    if (!options.allowEmpty && drafts.some((lines) => lines.length === 0)) {
      throw ApiError.badRequest('This subscription has no line to bill.');
    }
    const billed = planned.flatMap((p, i) => (drafts[i].length ? [i] : []));
    const issuedIds = await this.issueAll(
      tx,
      ctx,
      billed.map((i) => ({
        sub: planned[i].sub,
        lines: drafts[i],
        date: planned[i].date,
        cycle: cycleDates(planned[i].cycle, planned[i].before, zone),
      })),
      catalog,
    );
    const invoiceIds = planned.map((): number | null => null);
    billed.forEach((i, n) => (invoiceIds[i] = issuedIds[n]));

    const now = this.clock.now();
    // The subscriptions' advance: one UPDATE per distinct next cycle start (a batch due at
    // one moment has a few). The next cycle starts where this one ends.
    const byNext = groupBy(planned, ({ cycle }) => cycle.end.getTime());
    for (const [next, ofNext] of byNext) {
      await updateWhereIn(
        m,
        Subscription,
        'package_id',
        ofNext.map((p) => p.sub.package_id),
        { next_invoice_datetime: new Date(next) },
      );
    }
    // Each line read here counts one more invoice (`+ 1` on the row: the same as the count
    // read, the subscription being locked), and those that reached `expire_recurs` expire.
    await updateWhereIn(
      m,
      SubscriptionLine,
      'line_item_id',
      allLines.map((l) => l.line_item_id),
      { invoices_billed: () => 'invoices_billed + 1' },
    );
    // A one-time price is over once billed (DESIGN §6 "One-time lines"): its line ends with
    // its first invoice, as a line at its `expire_recurs` does.
    const expired = allLines.filter((l) => {
      const after = Object.assign(history(l), { invoicesBilled: l.invoices_billed + 1 });
      const paycycle = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id)?.tierset.paycycle;
      return hasExpired(after) || (!items.get(l.item_id)?.is_usage && !billsPrice(after, paycycle));
    });
    await updateWhereIn(
      m,
      SubscriptionLine,
      'line_item_id',
      expired.map((l) => l.line_item_id),
      { expire_datetime: now },
    );
    if (pending.length) {
      // Each pending proration is billed on its subscription's invoice (ids are our own integers).
      const invoiceOf = new Map(planned.map((p, i) => [p.sub.package_id, invoiceIds[i]]));
      const cases = [...new Set(pending.map((p) => p.package_id))]
        .map((id) => `WHEN ${Number(id)} THEN ${Number(invoiceOf.get(id))}`)
        .join(' ');
      await updateWhereIn(
        m,
        PendingProration,
        'package_proration_id',
        pending.map((p) => p.package_proration_id),
        { invoice_id: () => `CASE package_id ${cases} END` },
      );
    }
    const keys = planned.map((p, i) => ({
      package_id: p.sub.package_id,
      cycle_start: p.cycle.start,
      invoice_id: invoiceIds[i],
      write_datetime: now,
    }));
    for (const run of insertRuns(keys)) await insertRows(m, BillingCycle, run.rows);
    return invoiceIds;
  }

  /**
   * The metered lines the cycle at `next_invoice_datetime` bills usage for, with their
   * periods (the cycle that just ended): what a billing run asks USAGE_URL before the unit.
   */
  async meteredLinesOfNextCycle(m: EntityManager, sub: Subscription): Promise<MeteredLine[]> {
    if (sub.next_invoice_datetime === null) return [];
    const zone = this.wire.timezone;
    const cycle = cycleAt(sub.start_datetime, sub.paycycle, sub.next_invoice_datetime, zone);
    const lines = (await this.billableLinesOf(m, [sub.package_id])).get(sub.package_id) ?? [];
    return meteredLines(
      lines,
      await itemsOf(m, lines),
      cycleBefore(sub.start_datetime, sub.paycycle, cycle, zone),
      zone,
    );
  }

  /** Each subscription's lines not replaced, removed or expired, in order (one query). */
  private async billableLinesOf(m: EntityManager, packageIds: number[]): Promise<Map<number, SubscriptionLine[]>> {
    // A precomputed reader, not `find`: a billing run's batch reads all its lines here.
    const lines = packageIds.length
      ? await plainReader(m, SubscriptionLine).many(m, {
          where: 'e.package_id IN (:...ids) AND e.cancel_datetime IS NULL AND e.expire_datetime IS NULL',
          params: { ids: packageIds },
          tail: 'ORDER BY e.line_item_id ASC',
        })
      : [];
    const bySub = new Map<number, SubscriptionLine[]>(packageIds.map((id) => [id, []]));
    for (const l of lines) if (!hasExpired(history(l))) bySub.get(l.package_id)?.push(l);
    return bySub;
  }

  /**
   * Prorations billed at once, on an invoice of their own; credits beyond its charges go
   * to a credit memo (null: it held only credit, and no invoice was issued).
   */
  async issueProrations(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    charges: ProrationCharge[],
  ): Promise<number | null> {
    const tiersets = await loadTiersetsById(
      tx.manager,
      charges.flatMap((c) => (c.line.tierset_id === null ? [] : [c.line.tierset_id])),
    );
    const lines = charges.map((c) =>
      prorationLine(c.line, tiersets, c.amount.isNegative() ? c.fraction.negated() : c.fraction),
    );
    return (await this.issueAll(tx, ctx, [{ sub, lines }]))[0];
  }

  /**
   * The final invoice of an ending subscription (DESIGN §6 "Cancellation"): its metered
   * lines' stored usage (SubscriptionUsage) over [`from`, `until`), in arrears. Null when
   * no metered line had usage to bill.
   */
  async issueFinalUsage(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    period: { from: Date; until: Date; expired?: boolean },
  ): Promise<number | null> {
    const m = tx.manager;
    // An expired subscription bills the usage of its ended lines (not those removed).
    const lines = period.expired
      ? await m.find(SubscriptionLine, {
          where: { package_id: sub.package_id, cancel_datetime: IsNull() },
          order: { line_item_id: 'ASC' },
        })
      : ((await this.billableLinesOf(m, [sub.package_id])).get(sub.package_id) ?? []);
    // Usage periods are account days (DESIGN §6 "Usage"): an expiry ends on a cycle boundary;
    // a cancel's final period holds the whole cancel day, the last usage the subscription has.
    const zone = this.wire.timezone;
    const until = period.expired ? period.until : accountMidnight(addDays(accountDate(period.until, zone), 1), zone);
    const ended: Cycle = { index: -1, start: period.from, end: until };
    const metered = meteredLines(lines, await itemsOf(m, lines), ended, zone);
    const usage = await this.usage.amounts(m, metered);
    const billed = metered.filter((u) => usage.get(u.line.line_item_id)?.gt(0));
    if (billed.length === 0) return null;
    const tiersets = await loadTiersetsById(
      m,
      billed.flatMap((u) => (u.line.tierset_id === null ? [] : [u.line.tierset_id])),
    );
    const draftLines = billed.map((u) => usageLine(u, tiersets, usage.get(u.line.line_item_id)!));
    return (await this.issueAll(tx, ctx, [{ sub, lines: draftLines }]))[0];
  }

  /** The invoices of several subscriptions, their customers read once (InvoiceIssuer.issueMany). */
  private async issueAll(
    tx: Tx,
    ctx: RequestContext,
    invoices: Array<{ sub: Subscription; lines: InvoiceDraftLine[]; date?: string; cycle?: Partial<Invoice> }>,
    catalog?: PricingCatalog,
  ): Promise<Array<number | null>> {
    if (invoices.length === 0) return [];
    const customerIds = [...new Set(invoices.map((i) => i.sub.customer_id))];
    const customers = new Map(
      (
        await plainReader(tx.manager, Customer).many(tx.manager, {
          where: 'e.customer_id IN (:...ids)',
          params: { ids: customerIds },
        })
      ).map((c) => [c.customer_id, c]),
    );
    // A batch's catalog prices the invoices only if it knows every item (a line may be newer).
    const known =
      catalog && invoices.every((i) => i.lines.every((l) => catalog.items.has(l.item_id))) ? catalog : undefined;
    const today = accountDate(this.clock.now(), this.wire.timezone);
    return this.issuer.issueMany(
      tx,
      ctx,
      invoices.map(({ sub, lines, date, cycle }) => {
        const customer = customers.get(sub.customer_id);
        if (!customer) throw new Error(`Customer ${sub.customer_id} of subscription ${sub.package_id} not found`);
        return {
          customer,
          date: date ?? today,
          termsId: sub.terms_id,
          currencyId: sub.currency_id,
          packageId: sub.package_id,
          paymethod: sub.paymethod,
          lines,
          fields: { paycycle: sub.paycycle, class_id: sub.class_id, admin_id: sub.admin_id, ...cycle },
          credit: { memo: creditMemoOf(sub.package_id) },
        };
      }),
      known,
    );
  }
}

/** The memo of a credit a subscription gave back: it names the subscription (DESIGN §6 "Credits"). */
export function creditMemoOf(packageId: number): string {
  return `Credit from subscription ${packageId}`;
}

/**
 * A cycle's lines before prorations: recurring lines in advance (free in trial; a one-time
 * price only on the line's first invoice), setup once, metered lines at the usage pulled or
 * stored for the cycle that just ended.
 */
function draftLinesOf(
  p: {
    sub: Subscription;
    cycle: Cycle;
    lines: SubscriptionLine[];
    metered: MeteredLine[];
    usage?: ReadonlyMap<number, Decimal>;
  },
  tiersets: Map<number, LoadedTierset>,
  items: Map<number, Item>,
  stored: Map<number, Decimal>,
): InvoiceDraftLine[] {
  const { cycle } = p;
  const tiersetOf = (l: SubscriptionLine) => (l.tierset_id === null ? undefined : tiersets.get(l.tierset_id));
  const period = { from: cycle.start, to: cycle.end };
  const draftLines: InvoiceDraftLine[] = [];
  for (const l of p.lines) {
    const tierset = tiersetOf(l);
    if (!items.get(l.item_id)?.is_usage && billsPrice(history(l), tierset?.tierset.paycycle)) {
      const origin: InvoiceDraftLine['origin'] = isInTrial(history(l), cycle.start) ? 'trial' : 'recurring';
      // Added to the priced line, not spread into a new literal: see ARCHITECTURE.md ("Objects on hot paths").
      draftLines.push(
        Object.assign(priced(l, tierset), { origin, period, package_line_id: l.line_item_id, descrip: l.descrip }),
      );
    }
    const setup = tierset?.tierset.setup;
    if (billsSetup(history(l)) && setup?.gt(0)) {
      draftLines.push({ origin: 'setup', item_id: l.item_id, line_rate: setup, package_line_id: l.line_item_id });
    }
  }
  for (const u of p.metered) {
    const id = u.line.line_item_id;
    draftLines.push(usageLine(u, tiersets, p.usage?.get(id) ?? stored.get(id) ?? ZERO));
  }
  return draftLines;
}

/** A metered line's invoice line for the usage over its period (in arrears). */
function usageLine(u: MeteredLine, tiersets: Map<number, LoadedTierset>, usage: Decimal): InvoiceDraftLine {
  const tierset = u.line.tierset_id === null ? undefined : tiersets.get(u.line.tierset_id);
  return Object.assign(priced(u.line, tierset, usage), {
    origin: 'usage' as const,
    usage,
    period: u.period,
    package_line_id: u.line.line_item_id,
    descrip: u.line.descrip,
  });
}

/** One subscription's next cycle to bill, with what its invoice is given. */
export interface CycleToBill {
  sub: Subscription;
  /** The invoice date (account date); default today. */
  date?: string;
  /** Usage pulled from USAGE_URL before the unit, by line id: wins over stored usage. */
  usage?: ReadonlyMap<number, Decimal>;
}

/** What holds for every cycle of a batch. */
export interface CycleBatchOptions {
  /** A cycle with nothing to bill moves on without an invoice (billing runs) instead of a 400. */
  allowEmpty?: boolean;
  /**
   * Items and current tiersets loaded once for a billing run's batch: what it knows is not
   * read again per cycle; anything it lacks (a line added since) is read as without it.
   */
  catalog?: PricingCatalog;
}

/** The options of one cycle's invoice. */
export type NextCycleOptions = Omit<CycleToBill, 'sub'> & CycleBatchOptions;

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
 * Metered lines bill the usage period (account-zone days, `usagePeriod`) of `ended`, the
 * cycle before the one invoiced (none on the first invoice, DESIGN §6, `billedPeriod` of a
 * usage line), from the line's subscription date if that came later; a line subscribed on
 * or after the next cycle's start date gets none yet.
 */
function meteredLines(
  lines: SubscriptionLine[],
  items: Map<number, Item>,
  ended: Cycle | null,
  zone: string,
): MeteredLine[] {
  if (!ended) return [];
  return lines.flatMap((line) => {
    const item = items.get(line.item_id);
    if (!item?.is_usage) return [];
    const period = usagePeriod(ended, zone, line.subscribe_datetime);
    return period.from < period.to ? [{ line, item, period }] : [];
  });
}

/**
 * The invoice's cycle dates (account dates, `to` inclusive): `this` = the cycle start,
 * `post` = the cycle billed in advance, `pre` = the cycle before it (`before`, usage in arrears).
 */
function cycleDates(cycle: Cycle, before: Cycle | null, zone: string): Partial<Invoice> {
  const day = (at: Date) => accountDate(at, zone);
  const start = day(cycle.start);
  return {
    cycle_this_date: start,
    cycle_post_from_date: start,
    cycle_post_to_date: addDays(day(cycle.end), -1),
    // The cycle before ends where this one starts.
    cycle_pre_from_date: before ? day(before.start) : null,
    cycle_pre_to_date: before ? addDays(start, -1) : null,
  };
}

/**
 * A line at its own price (its tierset; without one, the item's current price) for
 * `quantity` (default the line's; a metered line's usage): the pricer prices it as the same
 * item and quantity on a one-off invoice, discounts included (DESIGN §6 "One-time lines").
 */
function priced(
  l: SubscriptionLine,
  tierset: LoadedTierset | undefined,
  quantity: Decimal = l.line_quantity,
): Omit<InvoiceDraftLine, 'origin'> {
  return { item_id: l.item_id, line_quantity: quantity, tierset };
}

function prorationLine(l: SubscriptionLine, tiersets: Map<number, LoadedTierset>, prorate: Decimal): InvoiceDraftLine {
  const tierset = l.tierset_id === null ? undefined : tiersets.get(l.tierset_id);
  return Object.assign(priced(l, tierset), {
    origin: 'proration' as const,
    prorate,
    package_line_id: l.line_item_id,
    descrip: l.descrip,
  });
}
