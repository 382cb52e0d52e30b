import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { formatAmount } from 'src/core/money/money-format';
import { applyListQuery, applyWhere } from 'src/core/query';
import { assertExternalKeyFree, externalKeyAfterDelete } from 'src/core/refs/external-key';
import { findByPathRef, resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { INVOICE_REF } from './invoice-ref';
import { RevisionService } from 'src/core/revisions/revision.service';
import { addDays } from 'src/core/time/account-date';
import { parseInputDate } from 'src/core/time/datetime-input';
import { WireFormat } from 'src/core/wire/wire-format';
import { CUSTOMER_REF } from 'src/customers/customers.service';
import { Customer } from 'src/customers/entities/customer.entity';
import { modStamps } from 'src/core/context/record-stamps';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { ReferenceService } from 'src/reference/reference.service';
import { CreateInvoiceDto, UpdateInvoiceDto } from './dto/invoice-fields.dto';
import { InvoiceLine } from './entities/invoice-line.entity';
import { InvoiceSchedule } from './entities/invoice-schedule.entity';
import { Invoice } from './entities/invoice.entity';
import { lockedInvoiceByRef } from './invoice-lock';
import { hasNetApplied, InvoiceExtensions, netApplied } from './invoice-extensions';
import { LineInput, parseLineItems } from './invoice-line-input';
import { LineSpec, priceInvoiceLines } from './invoice-line-pricer';
import { InvoiceDraftLine, InvoiceIssuer, lineSpecOf } from './invoice-issuer';
import { InvoiceReader } from './invoice-reader';
import { PricingInputsLoader } from './pricing-inputs-loader';
import { InvoiceStatusUpdater } from './invoice-status-updater';
import { OpenDueDates } from './open-due-dates';
import { INVOICE_STATUSES, InvoiceStatusStr, isClosed } from './invoice-status';
import { invoiceQueryFields } from './invoice.query-fields';
import { dtoColumns } from 'src/core/validation/dto-columns';
import { WireFullInvoice, WireInvoice } from './wire-invoice';

/** DTO fields that are not plain invoice columns. */
const NOT_COLUMNS = new Set(['line_items', 'date', 'customer_id', 'customer_token', 'customer_external_key']);

@Injectable()
export class InvoicesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly reference: ReferenceService,
    private readonly issuer: InvoiceIssuer,
    private readonly pricing: PricingInputsLoader,
    private readonly reader: InvoiceReader,
    private readonly statuses: InvoiceStatusUpdater,
    private readonly openDueDates: OpenDueDates,
    private readonly extensions: InvoiceExtensions,
    private readonly wire: WireFormat,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(ctx: RequestContext, dto: CreateInvoiceDto, body: Record<string, unknown>): Promise<number> {
    this.assertReferences(dto);
    const date = this.dateOf(dto.date) ?? this.reader.today();
    if (dto.line_items === undefined) {
      throw ApiError.badRequest('A required parameter was missing: "line_items" (at least one line item).');
    }
    const lines = parseLineItems(dto.line_items, false);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const customerId = await resolvePayloadRef(m, CUSTOMER_REF, body, 'customer');
      if (customerId === undefined || customerId === null) {
        throw ApiError.badRequest(
          'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
        );
      }
      const customer = await m.findOneOrFail(Customer, { where: { customer_id: customerId } });
      await assertExternalKeyFree(m, Invoice, 'invoice_id', dto.external_key, 'invoice');
      return this.issuer.issue(tx, ctx, {
        customer,
        date,
        termsId: dto.terms_id ?? customer.terms_id,
        currencyId: dto.currency_id ?? customer.currency_id,
        lines: lines.map(toDraftLine),
        fields: dtoColumns<Invoice>(dto, NOT_COLUMNS),
      });
    });
  }

  async update(ctx: RequestContext, ref: string, dto: UpdateInvoiceDto): Promise<number> {
    this.reference.assertExists('terms_id', dto.terms_id);
    this.reference.assertExists('admin_id', dto.admin_id);
    const date = this.dateOf(dto.date);
    const lines = dto.line_items === undefined ? undefined : parseLineItems(dto.line_items, true);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const invoice = await lockedInvoiceByRef(tx, ref);
      const id = invoice.invoice_id;
      const before = await this.assertOpen(tx, invoice, 'changed');
      await assertExternalKeyFree(m, Invoice, 'invoice_id', dto.external_key, 'invoice', id);
      const changes: Partial<Invoice> = {
        ...dtoColumns<Invoice>(dto, NOT_COLUMNS),
        ...modStamps(ctx, this.clock.now()),
      };
      if (date) changes.date = date;
      const termsDays = this.reference.terms(dto.terms_id ?? invoice.terms_id)?.terms_days ?? 0;
      changes.due_date = addDays(date ?? invoice.date, termsDays);
      if (lines) Object.assign(changes, await this.replaceLines(m, invoice, lines));
      const total = changes.total ?? invoice.total;
      const applied = (await this.extensions.appliedFor(m, [id])).get(id)!;
      const appliedSum = netApplied(applied);
      if (total.lt(appliedSum)) {
        throw ApiError.badRequest(
          `Field "line_items": the new total (${formatAmount('', total).trim()}) is less than the ${formatAmount('', appliedSum).trim()} already applied to this invoice.`,
        );
      }
      await m.update(Invoice, id, changes);
      await this.syncDefaultSchedule(m, id, changes.due_date, total);
      await this.revisions.record(tx, ctx, 'invoice', id, 'Invoice updated');
      // The due date may have moved: the status is judged against the one read before.
      await this.statuses.refresh(tx, ctx, [id], new Map([[id, before]]));
      return id;
    });
  }

  async delete(ctx: RequestContext, ref: string): Promise<boolean> {
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      const invoice = await lockedInvoiceByRef(tx, ref);
      const applied = (await this.extensions.appliedFor(m, [invoice.invoice_id])).get(invoice.invoice_id)!;
      if (hasNetApplied(applied)) {
        throw ApiError.badRequest('This invoice has payments or credits applied: unapply them before deleting it.');
      }
      await this.extensions.assertNothingInFlight(m, invoice.invoice_id, 'deleted');
      // Even with nothing net applied (a payment fully refunded), what names the invoice stays.
      const references = await this.extensions.referencesTo(m, invoice.invoice_id);
      if (references.length > 0) {
        throw ApiError.badRequest(`This invoice cannot be deleted: ${references.join('; ')}; void it instead.`);
      }
      const now = this.clock.now();
      await m.update(Invoice, invoice.invoice_id, {
        external_key: externalKeyAfterDelete(invoice.external_key, this.config.externalKeyOnDelete, invoice.token),
        deleted_datetime: now,
        ...modStamps(ctx, now),
      });
      await this.openDueDates.refresh(tx, [invoice]);
      await this.revisions.record(tx, ctx, 'invoice', invoice.invoice_id, 'Invoice deleted');
    });
    return true;
  }

  async findOne(ref: string): Promise<WireFullInvoice> {
    const invoice = await findByPathRef(this.dataSource.manager, INVOICE_REF, ref);
    return this.reader.full(this.dataSource.manager, invoice.invoice_id);
  }

  async idOf(ref: string): Promise<number> {
    return (await findByPathRef(this.dataSource.manager, INVOICE_REF, ref)).invoice_id;
  }

  async list(query: Record<string, unknown>): Promise<WireInvoice[]> {
    const qb = this.dataSource.manager.createQueryBuilder(Invoice, 'i');
    applyListQuery(qb, this.queryFields(), query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'i.invoice_id', dir: 'ASC' },
    });
    return this.reader.overviews(this.dataSource.manager, await qb.getMany());
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(Invoice, 'i');
    applyWhere(qb, this.queryFields(), query.where, this.wire.timezone);
    return qb.getCount();
  }

  /** A 400 saying why, when the invoice is closed (paid or void) and so cannot be `what`. */
  async assertOpen(tx: Tx, invoice: Invoice, what: string): Promise<InvoiceStatusStr> {
    const status = (await this.reader.figuresFor(tx.manager, [invoice])).get(invoice.invoice_id)!.status;
    if (isClosed(status)) {
      throw ApiError.badRequest(
        `This invoice is ${INVOICE_STATUSES[status].name.toLowerCase()} (${status}) and cannot be ${what}.`,
      );
    }
    return status;
  }

  private queryFields() {
    return invoiceQueryFields(this.reader.today(), this.extensions.queryFields());
  }

  /**
   * The new line list: entries with only `line_item_id` keep that line; entries with
   * `line_item_id` and fields reprice it with those fields; the rest are new; lines not
   * named are removed. Returns the new sums.
   */
  private async replaceLines(m: EntityManager, invoice: Invoice, lines: LineInput[]): Promise<Partial<Invoice>> {
    const existing = new Map(
      (await m.find(InvoiceLine, { where: { invoice_id: invoice.invoice_id } })).map((l) => [l.line_item_id, l]),
    );
    const kept: InvoiceLine[] = [];
    const specs: LineSpec[] = [];
    const named = new Set<number>();
    for (const line of lines) {
      const current = line.line_item_id === undefined ? undefined : existing.get(line.line_item_id);
      if (line.line_item_id !== undefined && !current) {
        throw ApiError.badRequest(
          `Field "${line.path}.line_item_id": line ${line.line_item_id} is not a line of this invoice.`,
        );
      }
      // A line named twice would be summed twice (or kept and also repriced).
      if (line.line_item_id !== undefined && named.has(line.line_item_id)) {
        throw ApiError.badRequest(
          `Field "${line.path}.line_item_id": line ${line.line_item_id} is named more than once.`,
        );
      }
      if (line.line_item_id !== undefined) named.add(line.line_item_id);
      if (line.keep && current) kept.push(current);
      else specs.push(current ? mergeSpec(line, current) : lineSpecOf(toDraftLine(line)));
    }
    const customer = await m.findOneOrFail(Customer, { where: { customer_id: invoice.customer_id } });
    const catalog = await this.pricing.catalog(
      m,
      specs.map((spec) => spec.item_id),
    );
    const inputs = PricingInputsLoader.forInvoice(catalog, invoice.currency_id, customer.no_taxes);
    const firstSort = Math.max(0, ...kept.map((l) => l.sort_order + 1));
    const { rows, sums } = priceInvoiceLines(specs, kept, inputs, firstSort);
    const keptIds = new Set(kept.map((l) => l.line_item_id));
    const removed = [...existing.keys()].filter((lineId) => !keptIds.has(lineId));
    if (removed.length) await m.delete(InvoiceLine, { line_item_id: In(removed) });
    if (rows.length) {
      await m.insert(
        InvoiceLine,
        rows.map((row) => ({ ...row, invoice_id: invoice.invoice_id })),
      );
    }
    return { ...sums };
  }

  /** The default schedule (one entry) follows the invoice's total and due date. */
  private async syncDefaultSchedule(
    m: EntityManager,
    invoiceId: number,
    dueDate: string | undefined,
    total: Invoice['total'],
  ): Promise<void> {
    const entries = await m.find(InvoiceSchedule, { where: { invoice_id: invoiceId } });
    if (entries.length !== 1) return;
    await m.update(InvoiceSchedule, entries[0].invoice_schedule_id, {
      amount: total,
      ...(dueDate ? { due_date: dueDate } : {}),
    });
  }

  private dateOf(raw: string | undefined): string | undefined {
    if (raw === undefined) return undefined;
    const date = parseInputDate(raw, this.wire.timezone);
    if (!date) throw ApiError.badRequest('Invalid field "date": not a valid date.');
    return date;
  }

  private assertReferences(dto: CreateInvoiceDto): void {
    this.reference.assertExists('currency_id', dto.currency_id);
    this.reference.assertExists('terms_id', dto.terms_id);
    this.reference.assertExists('class_id', dto.class_id);
    this.reference.assertExists('admin_id', dto.admin_id);
  }
}

function toDraftLine(line: LineInput): InvoiceDraftLine {
  return {
    origin: 'manual',
    path: line.path,
    item_id: line.item_id!,
    paycycle: line.paycycle,
    descrip: line.descrip,
    line_rate: line.line_rate,
    line_quantity: line.line_quantity,
    custom: line.custom,
  };
}

/** An existing line named with new fields: the fields sent, the rest as they were. */
function mergeSpec(line: LineInput, current: InvoiceLine): LineSpec {
  const custom: Record<string, string | null> = {};
  for (let n = 1; n <= 10; n++) custom[`custom_${n}`] = current[`custom_${n}`] ?? null;
  const itemChanged = line.item_id !== undefined && line.item_id !== current.item_id;
  if (current.is_setup && itemChanged) {
    throw ApiError.badRequest(
      `Field "${line.path}.item_id": line ${current.line_item_id} is a setup fee; its item cannot be changed.`,
    );
  }
  return {
    path: line.path,
    origin: current.is_setup ? 'setup' : 'existing',
    tierset_id: current.tierset_id,
    item_id: line.item_id ?? current.item_id,
    paycycle: line.paycycle ?? current.paycycle,
    descrip: line.descrip !== undefined ? line.descrip : current.descrip,
    // The stored rate is kept unless the item changes or a new rate is sent.
    // A setup line keeps its setup rate (it is billed once, DESIGN §6).
    line_rate:
      line.line_rate ??
      (itemChanged || (current.tierset_id !== null && !current.is_setup) ? undefined : current.line_rate),
    line_quantity: line.line_quantity ?? current.line_quantity,
    custom: { ...custom, ...line.custom },
    // What the line bills stays as it was issued.
    lineOrigin: current.line_origin,
    period: current.period_from && current.period_to ? { from: current.period_from, to: current.period_to } : undefined,
    prorate: current.line_prorate ?? undefined,
    package_line_id: current.package_line_id,
  };
}
