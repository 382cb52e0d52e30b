import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { findByPathRef, resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { accountDate } from 'src/core/time/account-date';
import { parseInputDatetime } from 'src/core/time/datetime-input';
import { dtoColumns } from 'src/core/validation/dto-columns';
import { WireFormat } from 'src/core/wire/wire-format';
import { CUSTOMER_REF } from 'src/customers/customers.service';
import { Customer } from 'src/customers/entities/customer.entity';
import { modStamps, newRecordStamps } from 'src/core/context/record-stamps';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { ReferenceService } from 'src/reference/reference.service';
import { CreateSubscriptionDto, UpdateSubscriptionDto } from './dto/subscription-fields.dto';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionEvents, SubscriptionEvent } from './subscription-events';
import { parseSubscriptionLines, SubscriptionLineInput } from './subscription-line-input';
import { SubscriptionLineWriter } from './subscription-line-writer';
import { defaultPaymethodOf, SubscriptionPaymethodInput } from './subscription-paymethod-input';
import { SubscriptionMrr } from './subscription-mrr';
import { SubscriptionReader } from './subscription-reader';
import { SUBSCRIPTION_REF } from './subscription-ref';
import { subscriptionQueryFields } from './subscription.query-fields';
import { WireFullSubscription, WireSubscription } from './wire-subscription';

/** DTO fields that are not plain subscription columns. */
const NOT_COLUMNS = new Set([
  'line_items',
  'holduntil_datetime',
  'paymethod',
  'creditcard_id',
  'ach_id',
  'tokenized_id',
  'customer_id',
  'customer_token',
  'customer_external_key',
]);

/** What a new subscription is made of (POST /package, or an accepted quote). */
export interface NewSubscription {
  customerId: number;
  /** Its own columns; the customer's terms, class, admin and currency fill what is left out. */
  columns: Partial<Subscription>;
  hold: Date | null;
  lines: SubscriptionLineInput[];
}

/** `/package`: create, update and reads (DESIGN §6 "Subscriptions"); actions are in SubscriptionActions. */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly reference: ReferenceService,
    private readonly reader: SubscriptionReader,
    private readonly events: SubscriptionEvents,
    private readonly lineWriter: SubscriptionLineWriter,
    private readonly paymethods: SubscriptionPaymethodInput,
    private readonly mrr: SubscriptionMrr,
    private readonly wire: WireFormat,
  ) {}

  async create(ctx: RequestContext, dto: CreateSubscriptionDto, body: Record<string, unknown>): Promise<number> {
    this.assertReferences(dto);
    const lines = parseSubscriptionLines(dto.line_items, this.wire.timezone, false);
    const hold = this.datetimeOf('holduntil_datetime', dto.holduntil_datetime);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const customerId = await resolvePayloadRef(m, CUSTOMER_REF, body, 'customer');
      if (customerId === undefined || customerId === null) {
        throw ApiError.badRequest(
          'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
        );
      }
      await assertExternalKeyFree(m, Subscription, 'package_id', dto.external_key, 'package');
      const method = await this.paymethods.read(m, customerId, dto);
      return this.createIn(tx, ctx, {
        customerId,
        columns: { ...dtoColumns<Subscription>(dto, NOT_COLUMNS), ...(method ?? {}) },
        hold: hold ?? null,
        lines,
      });
    });
  }

  /**
   * Writes a new subscription inside the caller's transaction (POST /package, quote
   * conversion): customer defaults for what `columns` leaves out, the cycle anchor, its
   * lines, the revision and package/insert. Returns its id.
   */
  async createIn(tx: Tx, ctx: RequestContext, input: NewSubscription): Promise<number> {
    const m = tx.manager;
    const customer = await m.findOneOrFail(Customer, { where: { customer_id: input.customerId } });
    const now = this.clock.now();
    // Held at creation: the cycles are anchored at the end of the hold (DESIGN §6).
    const anchor = input.hold && input.hold > now ? input.hold : now;
    const c = input.columns;
    const currencyId = c.currency_id ?? customer.currency_id;
    const inserted = await m.insert(Subscription, {
      // No payment method given: the customer's default, else `inv` (DESIGN §6).
      ...(c.paymethod === undefined ? defaultPaymethodOf(customer) : {}),
      ...c,
      customer_id: input.customerId,
      paycycle: c.paycycle ?? 'mon',
      currency_id: currencyId,
      terms_id: c.terms_id ?? customer.terms_id,
      class_id: c.class_id !== undefined ? c.class_id : customer.class_id,
      admin_id: c.admin_id !== undefined ? c.admin_id : customer.admin_id,
      brand_id: customer.brand_id,
      nickname: c.nickname ?? '',
      holduntil_datetime: input.hold,
      start_datetime: anchor,
      next_invoice_datetime: anchor,
      package_status_str: 'active',
      ...newRecordStamps(ctx, now),
    });
    const id = (inserted.identifiers[0] as { package_id: number }).package_id;
    await this.lineWriter.insert(m, id, currencyId, input.lines, now);
    await this.mrr.refresh(m, id);
    await this.revisions.record(tx, ctx, 'package', id, 'Subscription created');
    await this.events.record(tx, ctx, id, ['insert']);
    return id;
  }

  async update(ctx: RequestContext, ref: string, dto: UpdateSubscriptionDto): Promise<number> {
    this.assertReferences(dto);
    const hold = this.datetimeOf('holduntil_datetime', dto.holduntil_datetime);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const sub = await findByPathRef(m, SUBSCRIPTION_REF, ref);
      const id = sub.package_id;
      await assertExternalKeyFree(m, Subscription, 'package_id', dto.external_key, 'package', id);
      const method = await this.paymethods.read(m, sub.customer_id, dto);
      const changes: Partial<Subscription> = {
        ...dtoColumns<Subscription>(dto, NOT_COLUMNS),
        ...(method ?? {}),
        ...modStamps(ctx, this.clock.now()),
      };
      if (dto.holduntil_datetime !== undefined) changes.holduntil_datetime = hold ?? null;
      await m.update(Subscription, id, changes);
      await this.revisions.record(tx, ctx, 'package', id, 'Subscription updated');
      const events: SubscriptionEvent[] = ['update'];
      if (method && method.paymethod !== sub.paymethod) events.push('paymethod');
      await this.events.record(tx, ctx, id, events);
      return id;
    });
  }

  async findOne(ref: string): Promise<WireFullSubscription> {
    return this.reader.full(this.dataSource.manager, await this.idOf(ref));
  }

  async idOf(ref: string): Promise<number> {
    return (await findByPathRef(this.dataSource.manager, SUBSCRIPTION_REF, ref)).package_id;
  }

  async list(query: Record<string, unknown>): Promise<WireSubscription[]> {
    const qb = this.dataSource.manager.createQueryBuilder(Subscription, 'p');
    applyListQuery(qb, this.queryFields(), query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'p.package_id', dir: 'ASC' },
    });
    return this.reader.overviews(this.dataSource.manager, await qb.getMany());
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(Subscription, 'p');
    applyWhere(qb, this.queryFields(), query.where, this.wire.timezone);
    return qb.getCount();
  }

  private queryFields() {
    const now = this.clock.now();
    const sqlNow = DateTime.fromJSDate(now, { zone: 'utc' }).toFormat('yyyy-MM-dd HH:mm:ss.SSS');
    return subscriptionQueryFields(sqlNow, accountDate(now, this.wire.timezone));
  }

  /** A datetime field in one of the accepted input forms, or a 400 naming it. */
  datetimeOf(field: string, raw: string | null | undefined): Date | null | undefined {
    if (raw === undefined || raw === null) return raw;
    const parsed = parseInputDatetime(raw, this.wire.timezone);
    if (!parsed) throw ApiError.badRequest(`Invalid field "${field}": not a valid date or datetime.`);
    return parsed;
  }

  private assertReferences(dto: UpdateSubscriptionDto): void {
    this.reference.assertExists('currency_id', dto.currency_id);
    this.reference.assertExists('terms_id', dto.terms_id);
    this.reference.assertExists('class_id', dto.class_id);
    this.reference.assertExists('admin_id', dto.admin_id);
  }
}
