import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { ZERO } from 'src/core/money/decimal';
import { modStamps, newRecordStamps } from 'src/core/context/record-stamps';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { findByPathRef, resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { accountDate } from 'src/core/time/account-date';
import { parseInputDate, parseInputDatetime } from 'src/core/time/datetime-input';
import { dtoColumns } from 'src/core/validation/dto-columns';
import { WireFormat } from 'src/core/wire/wire-format';
import { CUSTOMER_REF } from 'src/customers/customers.service';
import { Customer } from 'src/customers/entities/customer.entity';
import { locksRows } from 'src/database/dialect';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { ReferenceService } from 'src/reference/reference.service';
import { CreateQuoteDto, UpdateQuoteDto } from './dto/quote-fields.dto';
import { Quote } from './entities/quote.entity';
import { QuoteEvents } from './quote-events';
import { parseQuoteLines } from './quote-line-input';
import { QuoteLineWriter } from './quote-line-writer';
import { QuoteReader } from './quote-reader';
import { QUOTE_REF } from './quote-ref';
import { QUOTE_STATUSES, QuoteStatusStr } from './quote-status';
import { QUOTE_QUERY_FIELDS } from './quote.query-fields';
import { WireFullQuote, WireQuote } from './wire-quote';

/** DTO fields that are not plain quote columns. */
const NOT_COLUMNS = new Set([
  'line_items',
  'date',
  'validuntil_date',
  'customer_id',
  'customer_token',
  'customer_external_key',
]);

/** `/quote`: create, update and reads (SPEC "Quote", DESIGN §6 "Quotes"); actions are in QuoteActions. */
@Injectable()
export class QuotesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly reference: ReferenceService,
    private readonly reader: QuoteReader,
    private readonly events: QuoteEvents,
    private readonly lineWriter: QuoteLineWriter,
    private readonly wire: WireFormat,
  ) {}

  async create(ctx: RequestContext, dto: CreateQuoteDto, body: Record<string, unknown>): Promise<number> {
    this.assertFields(dto);
    this.reference.assertExists('currency_id', dto.currency_id);
    this.reference.assertExists('brand_id', dto.brand_id);
    if (dto.paycycle === undefined) throw ApiError.badRequest('A required parameter was missing: "paycycle".');
    const lines = parseQuoteLines(dto.line_items, this.wire.timezone, false);
    const date = this.dateOf('date', dto.date) ?? accountDate(this.clock.now(), this.wire.timezone);
    const validUntil = this.dateOf('validuntil_date', dto.validuntil_date ?? undefined) ?? null;
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const customerId = await this.customerOf(tx, body, true);
      const customer = await m.findOneOrFail(Customer, { where: { customer_id: customerId! } });
      await assertExternalKeyFree(m, Quote, 'quote_id', dto.external_key, 'quote');
      const now = this.clock.now();
      const currencyId = dto.currency_id ?? customer.currency_id;
      const inserted = await m.insert(Quote, {
        ...dtoColumns<Quote>(dto, NOT_COLUMNS),
        customer_id: customerId!,
        date,
        validuntil_date: validUntil,
        currency_id: currencyId,
        terms_id: dto.terms_id ?? customer.terms_id,
        class_id: dto.class_id !== undefined ? dto.class_id : customer.class_id,
        admin_id: dto.admin_id !== undefined ? dto.admin_id : customer.admin_id,
        brand_id: dto.brand_id ?? customer.brand_id,
        nickname: dto.nickname ?? '',
        subtotal: ZERO,
        setup: ZERO,
        taxes: ZERO,
        total: ZERO,
        upfront: ZERO,
        quote_status_str: 'open-new',
        ...newRecordStamps(ctx, now),
      });
      const id = (inserted.identifiers[0] as { quote_id: number }).quote_id;
      const sums = await this.lineWriter.write(
        m,
        { quote_id: id, currency_id: currencyId },
        lines,
        customer.no_taxes,
        now,
      );
      await m.update(Quote, id, { ...sums, ...(dto.refnumber ? {} : { refnumber: String(id) }) });
      await this.revisions.record(tx, ctx, 'quote', id, 'Quote created');
      await this.events.record(tx, ctx, id, ['insert']);
      return id;
    });
  }

  async update(ctx: RequestContext, ref: string, dto: UpdateQuoteDto, body: Record<string, unknown>): Promise<number> {
    this.assertFields(dto);
    const lines = dto.line_items === undefined ? undefined : parseQuoteLines(dto.line_items, this.wire.timezone, true);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const quote = await this.lockedByRef(tx, ref);
      this.assertOpen(quote, 'changed');
      const id = quote.quote_id;
      await assertExternalKeyFree(m, Quote, 'quote_id', dto.external_key, 'quote', id);
      const customerId = (await this.customerOf(tx, body, false)) ?? quote.customer_id;
      const customer = await m.findOneOrFail(Customer, { where: { customer_id: customerId } });
      const now = this.clock.now();
      const sums = lines ? await this.lineWriter.write(m, quote, lines, customer.no_taxes, now) : {};
      await m.update(Quote, id, {
        ...dtoColumns<Quote>(dto, NOT_COLUMNS),
        ...sums,
        customer_id: customerId,
        ...modStamps(ctx, now),
      });
      await this.revisions.record(tx, ctx, 'quote', id, 'Quote updated');
      await this.events.record(tx, ctx, id, ['update']);
      return id;
    });
  }

  async findOne(ref: string): Promise<WireFullQuote> {
    return this.reader.full(this.dataSource.manager, await this.idOf(ref));
  }

  async idOf(ref: string): Promise<number> {
    return (await findByPathRef(this.dataSource.manager, QUOTE_REF, ref)).quote_id;
  }

  async list(query: Record<string, unknown>): Promise<WireQuote[]> {
    const qb = this.dataSource.manager.createQueryBuilder(Quote, 'q');
    applyListQuery(qb, QUOTE_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'q.quote_id', dir: 'ASC' },
    });
    return this.reader.overviews(await qb.getMany());
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(Quote, 'q');
    applyWhere(qb, QUOTE_QUERY_FIELDS, query.where, this.wire.timezone);
    return qb.getCount();
  }

  /** The quote a path names (404 if none), under its row lock on MySQL/MariaDB. */
  async lockedByRef(tx: Tx, ref: string): Promise<Quote> {
    const found = await findByPathRef(tx.manager, QUOTE_REF, ref);
    if (!locksRows(tx.manager)) return found;
    const locked = await tx.manager
      .createQueryBuilder(Quote, 'q')
      .where('q.quote_id = :id', { id: found.quote_id })
      .setLock('pessimistic_write')
      .getOne();
    return locked ?? found;
  }

  /** A closed quote (won or lost) cannot change (DESIGN §6 "Quotes"). */
  assertOpen(quote: Quote, what: string): void {
    const status = quote.quote_status_str as QuoteStatusStr;
    if (status === 'open-new') return;
    throw ApiError.badRequest(
      `This quote is closed (${status}, ${QUOTE_STATUSES[status].name.toLowerCase()}) and cannot be ${what}.`,
    );
  }

  private async customerOf(tx: Tx, body: Record<string, unknown>, required: boolean): Promise<number | undefined> {
    const id = await resolvePayloadRef(tx.manager, CUSTOMER_REF, body, 'customer');
    if ((id === undefined && required) || id === null) {
      throw ApiError.badRequest(
        'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
      );
    }
    return id;
  }

  private assertFields(dto: UpdateQuoteDto): void {
    this.reference.assertExists('terms_id', dto.terms_id);
    this.reference.assertExists('class_id', dto.class_id);
    this.reference.assertExists('admin_id', dto.admin_id);
    const hold = dto.holduntil_datetime_str;
    if (hold !== undefined && hold !== null && hold !== '' && !parseInputDatetime(hold, this.wire.timezone)) {
      throw ApiError.badRequest('Invalid field "holduntil_datetime_str": not a valid date or datetime.');
    }
  }

  private dateOf(field: string, raw: string | undefined): string | undefined {
    if (raw === undefined) return undefined;
    const date = parseInputDate(raw, this.wire.timezone);
    if (!date) throw ApiError.badRequest(`Invalid field "${field}": not a valid date.`);
    return date;
  }
}
