import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { groupBy } from 'src/core/collections/group-by';
import { ApiError } from 'src/core/envelope/api-error';
import { accountDate } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { EntityReader, plainReader } from 'src/database/entity-reader';
import { linesWithItemReader } from 'src/items/lines-with-item';
import { TaxesService } from 'src/taxes/taxes.service';
import { InvoiceDelivery } from './entities/invoice-delivery.entity';
import { InvoiceLine } from './entities/invoice-line.entity';
import { InvoiceSchedule } from './entities/invoice-schedule.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceExtensions } from './invoice-extensions';
import { InvoiceFacts, InvoiceFigures, invoiceFigures } from './invoice-figures';
import { InvoicePresenter, LINE_ITEM_COLUMNS, LineWithItem } from './invoice.presenter';
import { WireFullInvoice, WireInvoice } from './wire-invoice';

/** What `factsOfSubscriptions` reads of an invoice. */
export type SubscriptionInvoiceFacts = InvoiceFacts & Pick<Invoice, 'invoice_id' | 'package_id'>;

/**
 * Reads invoices for the wire: a page of overviews costs one query for the money applied
 * (per extension source) beside the page itself; a full invoice adds one query each for
 * lines (with their items), tax names, schedule and deliveries, for one invoice or many.
 */
@Injectable()
export class InvoiceReader {
  /** Lines with the item columns a line presents (built on first use: it needs the data source). */
  private linesReader: EntityReader<LineWithItem> | null = null;
  /** Only what the figures derive from, and whose subscription (built on first use, as linesReader). */
  private factsReader: EntityReader<SubscriptionInvoiceFacts> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly extensions: InvoiceExtensions,
    private readonly presenter: InvoicePresenter,
    private readonly taxes: TaxesService,
  ) {}

  /** The account's date today (DESIGN §3: "today" is in ACCOUNT_TIMEZONE). */
  today(): string {
    return accountDate(this.clock.now(), this.wire.timezone);
  }

  async figuresFor(
    manager: EntityManager,
    invoices: ReadonlyArray<InvoiceFacts & { invoice_id: number }>,
  ): Promise<Map<number, InvoiceFigures>> {
    const applied = await this.extensions.appliedFor(
      manager,
      invoices.map((i) => i.invoice_id),
    );
    const today = this.today();
    return new Map(invoices.map((i) => [i.invoice_id, invoiceFigures(i, applied.get(i.invoice_id)!, today)]));
  }

  /**
   * The invoices of these subscriptions that are not void, with only the columns their
   * figures derive from: one query. A subscription billed monthly for years has dozens, and
   * a billing run presents every subscription it bills; whole rows made its cost grow with
   * that history (bench/RESULTS.md, BENCH_HISTORY).
   */
  async factsOfSubscriptions(
    manager: EntityManager,
    packageIds: readonly number[],
  ): Promise<SubscriptionInvoiceFacts[]> {
    if (packageIds.length === 0) return [];
    this.factsReader ??= new EntityReader<SubscriptionInvoiceFacts>(manager.connection, {
      entity: Invoice,
      alias: 'i',
      columns: ['package_id', 'total', 'due_date', 'void_datetime', 'in_collections'],
    });
    return this.factsReader.many(manager, {
      where: 'i.package_id IN (:...ids) AND i.void_datetime IS NULL',
      params: { ids: [...packageIds] },
    });
  }

  async overviews(manager: EntityManager, invoices: Invoice[]): Promise<WireInvoice[]> {
    const applied = await this.extensions.appliedFor(
      manager,
      invoices.map((i) => i.invoice_id),
    );
    const today = this.today();
    return invoices.map((i) => {
      const a = applied.get(i.invoice_id)!;
      return this.presenter.overview(i, a, invoiceFigures(i, a, today));
    });
  }

  /** The full invoice: overview, `line_items`, `schedule`, `sent`. */
  async full(manager: EntityManager, invoiceId: number): Promise<WireFullInvoice> {
    return (await this.fullMany(manager, [invoiceId]))[0];
  }

  /**
   * The full invoices, in the order of `invoiceIds` (404 when one is missing): one query
   * each for the invoices, the money applied (per extension source), the lines with their
   * items, the tax names, the schedules and the deliveries, however many ids.
   */
  async fullMany(manager: EntityManager, invoiceIds: readonly number[]): Promise<WireFullInvoice[]> {
    const ids = [...new Set(invoiceIds)];
    if (ids.length === 0) return [];
    // Whole rows through precomputed readers, not `find`: a billing run's batch reads back
    // every invoice it issued, and the query builder's hydration cost more than the query.
    const byIds = { where: 'e.invoice_id IN (:...ids)', params: { ids } };
    const invoices = await plainReader(manager, Invoice).many(manager, { ...byIds, withDeleted: true });
    if (invoices.length !== ids.length) throw ApiError.notFound('invoice');
    const applied = await this.extensions.appliedFor(manager, ids);
    const lines = await this.lines(manager, ids);
    const groupTaxes = await this.taxes.groupTaxes(
      manager,
      lines.flatMap((l) => (l.tax_group_id === null ? [] : [l.tax_group_id])),
    );
    // Narrow rows, few of them: through the query builder still (one list parameter, not In()).
    const schedules = groupBy(
      await manager.createQueryBuilder(InvoiceSchedule, 's').where('s.invoice_id IN (:...ids)', { ids }).getMany(),
      (s) => s.invoice_id,
    );
    const deliveries = groupBy(
      await manager
        .createQueryBuilder(InvoiceDelivery, 'd')
        .where('d.invoice_id IN (:...ids)', { ids })
        .orderBy('d.invoice_delivery_id', 'ASC')
        .getMany(),
      (d) => d.invoice_id,
    );
    const linesOf = groupBy(lines, (l) => l.invoice_id);
    const today = this.today();
    const full = new Map(
      invoices.map((invoice): [number, WireFullInvoice] => {
        const id = invoice.invoice_id;
        const figures = invoiceFigures(invoice, applied.get(id)!, today);
        // Added to the overview, not spread into a new literal: see ARCHITECTURE.md ("Objects on hot paths").
        return [
          id,
          Object.assign(this.presenter.overview(invoice, applied.get(id)!, figures), {
            line_items: (linesOf.get(id) ?? []).map((l) => this.presenter.line(l, groupTaxes)),
            schedule: this.presenter.schedule(invoice, schedules.get(id) ?? [], figures, today),
            sent: this.presenter.sent(deliveries.get(id) ?? []),
          }),
        ];
      }),
    );
    return invoiceIds.map((id) => full.get(id)!);
  }

  /**
   * The invoices' lines, each invoice's in order, each with the item columns a line
   * presents (LINE_ITEM_COLUMNS; null when its item is soft-deleted): one query.
   */
  async lines(manager: EntityManager, invoiceIds: readonly number[]): Promise<LineWithItem[]> {
    if (invoiceIds.length === 0) return [];
    this.linesReader ??= linesWithItemReader<LineWithItem>(manager.connection, InvoiceLine, LINE_ITEM_COLUMNS);
    return this.linesReader.many(manager, {
      where: 'l.invoice_id IN (:...ids)',
      params: { ids: [...invoiceIds] },
      tail: 'ORDER BY l.sort_order ASC, l.line_item_id ASC',
    });
  }
}
