import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { groupBy } from 'src/core/collections/group-by';
import { ApiError } from 'src/core/envelope/api-error';
import { sumMoney } from 'src/core/money/decimal';
import { EntityReader, plainReader } from 'src/database/entity-reader';
import { linesWithItemReader } from 'src/items/lines-with-item';
import { InvoiceReader } from 'src/invoices/invoice-reader';
import { LoadedTierset, loadTiersetsById } from 'src/items/tierset-loader';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { LINE_ITEM_COLUMNS, LineWithItem, SubscriptionFigures, SubscriptionPresenter } from './subscription.presenter';
import { subscriptionStatus } from './subscription-status';
import { hasEnded } from 'src/billing/cycles/line-billing';
import { WireFullSubscription, WireSubscription } from './wire-subscription';

/**
 * Reads subscriptions for the wire. A page costs a fixed number of statements however
 * many subscriptions it holds: the page, its live lines with their items (trial status),
 * its invoices, and the money applied to them (one per InvoiceExtensions source); a full
 * read adds the lines' tiersets and tiers.
 */
@Injectable()
export class SubscriptionReader {
  /** Live lines with the item columns a line presents (built on first use: it needs the data source). */
  private linesReader: EntityReader<LineWithItem> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly invoices: InvoiceReader,
    private readonly presenter: SubscriptionPresenter,
  ) {}

  async overviews(m: EntityManager, subs: Subscription[]): Promise<WireSubscription[]> {
    const lines = await this.lines(
      m,
      subs.map((s) => s.package_id),
    );
    const figures = await this.figures(m, subs, lines);
    return subs.map((s) => this.presenter.overview(s, figures.get(s.package_id)!));
  }

  /**
   * One subscription with `line_items` (each with its tierset); 404 when there is none.
   * `loaded`: current tiersets by item already read (a billing run's batch), not read again.
   */
  async full(
    m: EntityManager,
    packageId: number,
    loaded?: Map<number, LoadedTierset[]>,
  ): Promise<WireFullSubscription> {
    return (await this.fullMany(m, [packageId], loaded))[0];
  }

  /** `full` for each of these subscriptions, in their order, in a fixed number of statements however many. */
  async fullMany(
    m: EntityManager,
    packageIds: readonly number[],
    loaded?: Map<number, LoadedTierset[]>,
  ): Promise<WireFullSubscription[]> {
    const ids = [...new Set(packageIds)];
    if (ids.length === 0) return [];
    // Whole rows through precomputed readers, not `find`: a billing run's batch reads back
    // every subscription it billed, and the query builder's hydration cost more than the query.
    const subs = await plainReader(m, Subscription).many(m, { where: 'e.package_id IN (:...ids)', params: { ids } });
    if (subs.length !== ids.length) throw ApiError.notFound('package');
    const lines = await this.lines(m, ids);
    const figures = await this.figures(m, subs, lines);
    const tiersets = await loadTiersetsById(
      m,
      lines.flatMap((l) => (l.tierset_id === null ? [] : [l.tierset_id])),
      loaded,
    );
    const linesOf = groupBy(lines, (l) => l.package_id);
    const full = new Map(
      subs.map((sub) => [
        sub.package_id,
        // Added to the overview, not spread into a new literal: see ARCHITECTURE.md ("Objects on hot paths").
        Object.assign(this.presenter.overview(sub, figures.get(sub.package_id)!), {
          line_items: (linesOf.get(sub.package_id) ?? []).map((l) =>
            this.presenter.line(l, l.tierset_id === null ? undefined : tiersets.get(l.tierset_id)),
          ),
        }),
      ]),
    );
    return packageIds.map((id) => full.get(id)!);
  }

  /**
   * The lines still on the subscriptions (not replaced or removed), each with the item
   * columns a line presents (LINE_ITEM_COLUMNS; null when its item is soft-deleted): one query.
   */
  async lines(m: EntityManager, packageIds: readonly number[]): Promise<LineWithItem[]> {
    if (packageIds.length === 0) return [];
    this.linesReader ??= linesWithItemReader<LineWithItem>(m.connection, SubscriptionLine, LINE_ITEM_COLUMNS);
    return this.linesReader.many(m, {
      where: 'l.package_id IN (:...ids) AND l.cancel_datetime IS NULL',
      params: { ids: [...packageIds] },
      tail: 'ORDER BY l.line_item_id ASC',
    });
  }

  private async figures(
    m: EntityManager,
    subs: Subscription[],
    lines: SubscriptionLine[],
  ): Promise<Map<number, SubscriptionFigures>> {
    const invoices = await this.invoices.factsOfSubscriptions(
      m,
      subs.map((s) => s.package_id),
    );
    const invoiceFigures = await this.invoices.figuresFor(m, invoices);
    const now = this.clock.now();
    const invoicesOf = groupBy(invoices, (i) => i.package_id);
    const linesOf = groupBy(lines, (l) => l.package_id);
    const result = new Map<number, SubscriptionFigures>();
    for (const s of subs) {
      const own = invoicesOf.get(s.package_id) ?? [];
      const figures = own.map((i) => invoiceFigures.get(i.invoice_id)!);
      const overdue = figures.filter((f) => f.is_overdue);
      const ownLines = linesOf.get(s.package_id) ?? [];
      const ended =
        ownLines.length > 0 &&
        ownLines.every((l) =>
          hasEnded({ expireRecurs: l.expire_recurs, invoicesBilled: l.invoices_billed }, l.expire_datetime, now),
        );
      const inTrial = ownLines.some(
        (l) =>
          l.expire_datetime === null &&
          ((l.trial_end_datetime !== null && l.trial_end_datetime > now) ||
            (l.trial_recurs !== null && l.invoices_billed < l.trial_recurs)),
      );
      result.set(s.package_id, {
        amount_invoiced: sumMoney(own.map((i) => i.total)),
        amount_collected: sumMoney(figures.map((f) => f.applied)),
        amount_due: sumMoney(figures.map((f) => f.balance)),
        is_overdue: overdue.length > 0,
        days_overdue: overdue.reduce((max, f) => Math.max(max, f.days_overdue), 0),
        status: subscriptionStatus(s, now, { overdue: overdue.length > 0, inTrial, ended }),
      });
    }
    return result;
  }
}
