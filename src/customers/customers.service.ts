import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { assertUsernameFree, generatedUsername, nameColumns } from './contact-writer';
import { presentMainContacts, presentStoredContact } from './contact.presenter';
import { Contact } from './entities/contact.entity';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { EventRecorder } from 'src/core/events/event-recorder';
import { applyWhere, listQueryClause } from 'src/core/query';
import { assertExternalKeyFree, externalKeyAfterDelete, insertWithExternalKey } from 'src/core/refs/external-key';
import { batchStatement, readsById, turnBatch, TurnBatch, writeTogetherOrAlone } from 'src/core/batching/turn-batch';
import { groupBy } from 'src/core/collections/group-by';
import { parsePathRef } from 'src/core/refs/path-ref';
import { findByPathRef, pathRefCondition, RefTarget } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { accountDateSql, accountToday, addDays } from 'src/core/time/account-date';
import { EntityReader, ReadClause } from 'src/database/entity-reader';
import { insertColumnsKey, insertRow, insertRowsReturningIds } from 'src/database/insert-row';
import { modStamps, newRecordStamps } from 'src/core/context/record-stamps';
import { readManager, Tx, UnitOfWork } from 'src/database/unit-of-work';
import { ReferenceService } from 'src/reference/reference.service';
import { ACTIVITY_DAYS, CustomerActivity } from './customer-activity';
import { CustomerDeletion } from './customer-deletion';
import { CustomerExtensions, EMPTY_FIGURES } from './customer-figures';
import { CustomerPresenter, CustomerWithSuperuser, SUPERUSER_COLUMNS } from './customer.presenter';
import { customerQueryFields } from './customer.query-fields';
import {
  customerStatusEqualsSql,
  customerStatusSql,
  isOverdue,
  overdueSql,
  readCustomerStatus,
} from './customer-status';
import { CreateCustomerDto } from './dto/create-customer.dto';
import { CustomerFieldsDto } from './dto/customer-fields.dto';
import { UpdateCustomerDto } from './dto/update-customer.dto';
import { Customer } from './entities/customer.entity';
import { dtoColumns } from 'src/core/validation/dto-columns';
import { WireContact } from './wire-contact';
import { WireCustomer } from './wire-customer';

export const CUSTOMER_REF: RefTarget<Customer> = { entity: Customer, idColumn: 'customer_id', resource: 'customer' };

/** `superuser_*` field -> main contact column. */
const SUPERUSER_FIELDS = {
  superuser_email: 'email',
  superuser_name: 'name',
  superuser_first_name: 'first_name',
  superuser_last_name: 'last_name',
  superuser_phone: 'phone',
} as const;

/** Customer fields that are not plain columns of the customer row. */
const NOT_COLUMNS = new Set([...Object.keys(SUPERUSER_FIELDS), 'superuser_username', 'superuser_id']);

/** A create that sets only the customer's own columns (no main contact, no parent). */
interface PlainCreate {
  ctx: RequestContext;
  dto: CreateCustomerDto;
}

@Injectable()
export class CustomersService {
  /** Customers with their main contact, in one query (the hot read path: built once, not per request). */
  private readonly reader: EntityReader<CustomerWithSuperuser>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly revisions: RevisionService,
    private readonly reference: ReferenceService,
    private readonly presenter: CustomerPresenter,
    private readonly extensions: CustomerExtensions,
    private readonly wire: WireFormat,
    private readonly deletion: CustomerDeletion,
    private readonly activity: CustomerActivity,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.reader = new EntityReader<CustomerWithSuperuser>(dataSource, {
      entity: Customer,
      alias: 'c',
      joins: [
        {
          property: 'superuser',
          entity: Contact,
          alias: 'su',
          on: 'su.user_id = c.superuser_id',
          columns: SUPERUSER_COLUMNS,
        },
      ],
    });
  }

  async create(ctx: RequestContext, dto: CreateCustomerDto): Promise<number> {
    this.assertReferences(dto);
    // A customer with only its own columns (the common create) may share an INSERT.
    if (!dto.parent_customer_id && !this.hasSuperuserFields(dto)) return this.plainCreates.load({ ctx, dto });
    return this.uow.run((tx) => this.createIn(tx, ctx, dto));
  }

  /** Creates of one turn that set only the customer's columns (see createPlain). */
  private readonly plainCreates: TurnBatch<PlainCreate, number> = turnBatch((creates) => this.createPlain(creates));

  /**
   * Plain creates of one turn: those that set the same columns in one unit of work with one
   * multi-row INSERT (on MariaDB a unit of a group costs a SAVEPOINT and its statements in a
   * row, so N creates alone cost 2N round trips before the group's COMMIT, together 3). Each
   * is still answered as alone (core/batching `writeTogetherOrAlone`): when the INSERT is
   * refused (an external key taken, by a racing request or twice in the batch), nothing was
   * written and each runs in a unit of its own, where a taken key is its own 400.
   */
  private async createPlain(creates: readonly PlainCreate[]): Promise<Array<number | Error>> {
    const answers = new Array<number | Error>(creates.length);
    const now = this.clock.now();
    const sets = groupBy(
      creates.map((create, i) => ({ create, i, row: this.newCustomerRow(create.ctx, create.dto, now) })),
      (c) => insertColumnsKey(c.row),
    );
    await Promise.all(
      [...sets.values()].map(async (set) => {
        const written = await writeTogetherOrAlone(
          set,
          (together) => this.createTogether(together),
          ({ create }) => this.uow.run((tx) => this.createIn(tx, create.ctx, create.dto)),
        );
        set.forEach((c, k) => (answers[c.i] = written[k]));
      }),
    );
    return answers;
  }

  /** The customers' ids, in order: one INSERT, one read back, then each one's revision and event. */
  private createTogether(
    set: ReadonlyArray<{ create: PlainCreate; row: QueryDeepPartialEntity<Customer> }>,
  ): Promise<number[]> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const ids = await batchStatement(
        insertRowsReturningIds(
          m,
          Customer,
          set.map((c) => c.row),
        ),
      );
      const inserted = new Map(
        (await this.reader.many(m, { where: 'c.customer_id IN (:...ids)', params: { ids } })).map((c) => [
          c.customer_id,
          c,
        ]),
      );
      for (let k = 0; k < set.length; k++) {
        const { ctx } = set[k].create;
        await this.revisions.record(tx, ctx, 'customer', ids[k], 'Customer created');
        // A new customer has no invoices or payments yet: its figures are zero.
        const customer = this.presenter.present(inserted.get(ids[k])!, EMPTY_FIGURES);
        await this.recordEventOf(tx, ctx, customer, 'insert', false);
      }
      return ids;
    });
  }

  /** The row of a new customer: its own columns from the body, stamped now. */
  private newCustomerRow(ctx: RequestContext, dto: CreateCustomerDto, now: Date): QueryDeepPartialEntity<Customer> {
    return Object.assign(dtoColumns<Customer>(dto, NOT_COLUMNS), newRecordStamps(ctx, now), {
      customer_status_str: 'active-current',
    });
  }

  /** One create in the caller's unit: the customer, its main contact when asked for, revision and events. */
  private async createIn(tx: Tx, ctx: RequestContext, dto: CreateCustomerDto): Promise<number> {
    const m = tx.manager;
    if (dto.parent_customer_id) await this.assertParentExists(m, dto.parent_customer_id, null);
    const now = this.clock.now();
    const inserted = await insertWithExternalKey(m, Customer, 'customer_id', dto.external_key, 'customer', () =>
      this.reader.insert(m, this.newCustomerRow(ctx, dto, now)),
    );
    const customerId = inserted.customer_id;

    let superuser: Contact | null = null;
    if (this.hasSuperuserFields(dto)) {
      superuser = await this.createMainContact(tx, ctx, customerId, dto, now);
    }
    await this.revisions.record(tx, ctx, 'customer', customerId, 'Customer created');
    // A new customer has no invoices or payments yet: its figures are zero. The inserted row
    // is the whole customer unless a main contact was added to it since.
    const customer = superuser
      ? await this.presentById(m, customerId, true)
      : this.presenter.present(inserted, EMPTY_FIGURES);
    await this.recordEventOf(tx, ctx, customer, 'insert', false);
    if (superuser) await this.recordMainContactEvent(tx, ctx, superuser.user_id, 'insert');
    return customerId;
  }

  async update(ctx: RequestContext, ref: string, dto: UpdateCustomerDto): Promise<number> {
    this.assertReferences(dto);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const customer = await findByPathRef(m, CUSTOMER_REF, ref);
      const id = customer.customer_id;
      await assertExternalKeyFree(m, Customer, 'customer_id', dto.external_key, 'customer', id);
      if (dto.parent_customer_id !== undefined && dto.parent_customer_id !== customer.parent_customer_id) {
        if (customer.parent_customer_id !== null) {
          await this.extensions.assertParentMayChange(m, id, customer.parent_customer_id);
        }
        if (dto.parent_customer_id !== null) await this.assertParentExists(m, dto.parent_customer_id, id);
      }
      const now = this.clock.now();
      const superuserChanged = dto.superuser_id !== undefined && dto.superuser_id !== customer.superuser_id;
      if (dto.superuser_id !== undefined) await this.assertOwnContact(m, id, dto.superuser_id);

      await m.update(Customer, id, {
        ...dtoColumns<Customer>(dto, NOT_COLUMNS),
        ...(dto.superuser_id !== undefined ? { superuser_id: dto.superuser_id } : {}),
        ...modStamps(ctx, now),
      });
      let superuserId = dto.superuser_id ?? customer.superuser_id;
      let contactEvent: 'insert' | 'update' | null = null;
      if (this.hasSuperuserFields(dto)) {
        if (superuserId === null) {
          superuserId = (await this.createMainContact(tx, ctx, id, dto, now)).user_id;
          contactEvent = 'insert';
        } else {
          await m.update(Contact, superuserId, { ...this.superuserColumns(dto), ...modStamps(ctx, now) });
          await this.revisions.record(tx, ctx, 'user', superuserId, 'Contact updated as main contact');
          contactEvent = 'update';
        }
      }
      await this.revisions.record(tx, ctx, 'customer', id, 'Customer updated');
      await this.recordCustomerEvent(tx, ctx, id, 'update', false);
      // A main contact created where there was none changes the main contact too (SPEC Events: super).
      if (superuserChanged || contactEvent === 'insert') await this.recordCustomerEvent(tx, ctx, id, 'super', true);
      if (contactEvent && superuserId !== null) await this.recordMainContactEvent(tx, ctx, superuserId, contactEvent);
      return id;
    });
  }

  /**
   * Deletes a customer that has nothing the books need: refused (400, every reason) while
   * it has invoices, payments or child customers; otherwise its contacts and payment
   * methods go with it, each with its revision, and customer/delete is fired with the
   * customer and main contact as they were. The key follows EXTERNAL_KEY_ON_DELETE.
   */
  async remove(ctx: RequestContext, ref: string): Promise<true> {
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      const customer = await findByPathRef(m, CUSTOMER_REF, ref);
      const id = customer.customer_id;
      const children = await m.count(Customer, { where: { parent_customer_id: id } });
      const reasons = await this.deletion.objections(m, id);
      if (children > 0) reasons.push(`it is the parent of ${children} customer(s); give them another parent first`);
      if (reasons.length > 0) throw ApiError.badRequest(`This customer cannot be deleted: ${reasons.join('; ')}.`);
      const presented = await this.presentById(m, id);
      const user = customer.superuser_id ? await this.presentContactById(m, customer.superuser_id) : null;
      const now = this.clock.now();
      await m.update(Customer, id, {
        external_key: externalKeyAfterDelete(customer.external_key, this.config.externalKeyOnDelete, customer.token),
        deleted_datetime: now,
        ...modStamps(ctx, now),
      });
      await this.deletion.cascade(tx, ctx, id);
      await this.revisions.record(tx, ctx, 'customer', id, 'Customer deleted');
      await this.events.record(tx, ctx, {
        contextStr: 'customer',
        contextId: id,
        event: 'delete',
        data: { customer: presented, user },
      });
    });
    return true;
  }

  /** Reads by id of one turn, as one statement (`GET /customer/<id>` under load). */
  private readonly readById: TurnBatch<number, WireCustomer> = readsById(
    'customer',
    (customer) => customer.customer_id,
    (ids) => this.presentedAmong(readManager(this.dataSource), ids),
  );

  /** The wire customer; inside a unit of work, as it stands in the unit's transaction. */
  async findOne(ref: string): Promise<WireCustomer> {
    const parsed = parsePathRef(ref);
    if (parsed?.kind === 'id') return this.readById.load(parsed.id);
    return this.presentOne(readManager(this.dataSource), pathRefCondition('c', CUSTOMER_REF, ref), true);
  }

  /** The customer's id for a path ref (404 when there is none). */
  async idOf(ref: string): Promise<number> {
    return (await findByPathRef(this.dataSource.manager, CUSTOMER_REF, ref)).customer_id;
  }

  async list(query: Record<string, unknown>): Promise<WireCustomer[]> {
    const clause = listQueryClause(this.queryFields(), query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'c.customer_id', dir: 'ASC' },
    });
    return this.readPresented(this.dataSource.manager, clause);
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(Customer, 'c');
    applyWhere(qb, this.queryFields(), query.where, this.wire.timezone);
    return qb.getCount();
  }

  /** The account's date today (DESIGN §3: "today" is in ACCOUNT_TIMEZONE): what a read derives the status as of. */
  private today(): string {
    return accountToday(this.clock.now(), this.wire.timezone);
  }

  /** `customer_status_str` as of `today`, for `where` and `order` over the alias `c`. */
  private statusSql(today: string): string {
    return customerStatusSql(...this.statusInputs(today));
  }

  /** The stored status, the overdue and the recent-activity conditions of the alias `c` as of `today`. */
  private statusInputs(today: string): [string, string, string] {
    return [
      'c.customer_status_str',
      overdueSql('c.open_due_date', accountDateSql(today)),
      this.activity.activitySql('c.customer_id', accountDateSql(activitySince(today))),
    ];
  }

  private queryFields() {
    const today = this.today();
    return customerQueryFields(this.statusSql(today), (value) =>
      customerStatusEqualsSql(value, ...this.statusInputs(today)),
    );
  }

  /**
   * The wire customer as it stands in this transaction (events, reads after writes).
   * `justCreated`: created in this transaction, so it has no invoices or payments and its
   * figures are zero without asking the modules that own them.
   */
  async presentById(manager: EntityManager, id: number, justCreated = false): Promise<WireCustomer> {
    if (justCreated) return this.presentOne(manager, { where: 'c.customer_id = :id', params: { id } }, false);
    return (await this.presentManyById(manager, [id]))[0];
  }

  /**
   * `presentById` for each of these customers, in their order (404 when one is missing):
   * one statement however many, plus the activity one when some are dormant.
   */
  async presentManyById(manager: EntityManager, ids: readonly number[]): Promise<WireCustomer[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const presented = await this.presentedAmong(manager, unique);
    if (presented.length !== unique.length) throw ApiError.notFound('customer');
    const byId = new Map(presented.map((c) => [c.customer_id, c]));
    return ids.map((id) => byId.get(id)!);
  }

  /**
   * The main-contact rule for a contact created through /user: the first contact of a customer
   * without one becomes its main contact (one conditional update, so two concurrent first
   * contacts cannot both claim it). True when it did: the caller then records
   * `mainContactChanged` after its own events.
   */
  async claimMainContact(tx: Tx, customerId: number, userId: number): Promise<boolean> {
    const claimed = await tx.manager.update(
      Customer,
      { customer_id: customerId, superuser_id: IsNull() },
      { superuser_id: userId },
    );
    return !!claimed.affected;
  }

  /** A deleted contact leaves its customer without a main contact, if it was the main one (true then). */
  async releaseMainContact(tx: Tx, userId: number): Promise<boolean> {
    const released = await tx.manager.update(Customer, { superuser_id: userId }, { superuser_id: null });
    return !!released.affected;
  }

  /**
   * Stores the status of these customers as a read now derives it, where it differs, with
   * one customer/status event each. Writers that change what a customer's status derives
   * from (a payment, a void, a due date) call it in their transaction; the nightly job
   * stores what time alone changes. Returns how many changed.
   */
  async storeDerivedStatuses(tx: Tx, ctx: RequestContext, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await tx.manager
      .createQueryBuilder(Customer, 'c')
      .select('c.customer_id', 'id')
      .addSelect('c.customer_status_str', 'stored')
      .addSelect(this.statusSql(this.today()), 'derived')
      .where('c.customer_id IN (:...ids)', { ids: [...new Set(ids)] })
      .orderBy('c.customer_id', 'ASC')
      .getRawMany<{ id: number | string; stored: string; derived: string }>();
    let changed = 0;
    for (const row of rows) {
      if (row.stored !== row.derived && (await this.storeStatus(tx, ctx, Number(row.id), row.stored, row.derived))) {
        changed++;
      }
    }
    return changed;
  }

  /**
   * Stores a status change with its customer/status event. Conditional on the status read
   * (`from`): a change another writer stored first is neither stored nor announced twice
   * (false then).
   */
  async storeStatus(tx: Tx, ctx: RequestContext, id: number, from: string, to: string): Promise<boolean> {
    const updated = await tx.manager.update(
      Customer,
      { customer_id: id, customer_status_str: from },
      {
        customer_status_str: to,
      },
    );
    if (!updated.affected) return false;
    await this.recordCustomerEvent(tx, ctx, id, 'status', false);
    return true;
  }

  /** The customer's main contact changed (SPEC Events: super). */
  mainContactChanged(tx: Tx, ctx: RequestContext, customerId: number): Promise<void> {
    return this.recordCustomerEvent(tx, ctx, customerId, 'super', true);
  }

  /** Records a customer event with its `customer` and main-contact `user` data. */
  async recordCustomerEvent(
    tx: Tx,
    ctx: RequestContext,
    id: number,
    event: string,
    withUserId: boolean,
  ): Promise<void> {
    await this.recordEventOf(tx, ctx, await this.presentById(tx.manager, id), event, withUserId);
  }

  /**
   * `recordCustomerEvent(..., false)` for each of these customers, in their order, with the
   * customers and their main contacts read once for all (the nightly job's customer/nightly:
   * a statement per customer per night was most of a long test-clock move).
   */
  async recordCustomerEvents(tx: Tx, ctx: RequestContext, ids: readonly number[], event: string): Promise<void> {
    const customers = await this.presentManyById(tx.manager, ids);
    const users = await presentMainContacts(tx.manager, customers, this.wire, this.reference);
    await this.events.recordMany(
      tx,
      ctx,
      customers.map((customer) => ({
        contextStr: 'customer',
        contextId: customer.customer_id,
        event,
        data: { customer, user: users.get(customer.superuser_id as number) ?? null },
      })),
    );
  }

  /** Records a customer event for `customer` as presented in this transaction. */
  private async recordEventOf(
    tx: Tx,
    ctx: RequestContext,
    customer: WireCustomer,
    event: string,
    withUserId: boolean,
  ): Promise<void> {
    const superuserId = customer.superuser_id;
    const user = superuserId ? await this.presentContactById(tx.manager, superuserId) : null;
    const data = withUserId ? { user_id: null, customer, user } : { customer, user };
    await this.events.record(tx, ctx, {
      contextStr: 'customer',
      contextId: customer.customer_id,
      event,
      data,
    });
  }

  /** The customers of these (distinct) ids that exist, presented with their figures, in no set order. */
  private presentedAmong(manager: EntityManager, ids: readonly number[]): Promise<WireCustomer[]> {
    return this.readPresented(manager, { where: 'c.customer_id IN (:...ids)', params: { ids } });
  }

  /** The one customer `clause` finds, presented (404 when there is none); `withFigures` false: zero figures, unread. */
  private async presentOne(
    manager: EntityManager,
    clause: ReadClause,
    withFigures: boolean,
  ): Promise<WireCustomer> {
    const [customer] = withFigures
      ? await this.readPresented(manager, clause)
      : (await this.reader.many(manager, clause)).map((row) => this.presenter.present(row, EMPTY_FIGURES));
    if (!customer) throw ApiError.notFound('customer');
    return customer;
  }

  /**
   * The customers `clause` finds, presented, their figures and status (as of today, from
   * the stored earliest due date of their open invoices) read by the same statement. Activity matters only to customers stored
   * `inactive-activity`; it is asked of those alone, by a second statement when a read
   * finds any: four more subqueries in every read cost MariaDB about 50 µs of its CPU per
   * read by id even where a CASE skipped them (bench/RESULTS.md, read floor round).
   */
  private async readPresented(manager: EntityManager, clause: ReadClause): Promise<WireCustomer[]> {
    const today = this.today();
    const figures = this.extensions.figureColumns(manager, 'c.customer_id');
    const rows = await this.reader.manyWithExtras(
      manager,
      { ...clause, params: { ...figures.params, ...clause.params } },
      figures.selects,
    );
    const dormant = rows.filter(({ entity }) => entity.customer_status_str === 'inactive-activity');
    const active =
      dormant.length === 0
        ? new Set<number>()
        : await this.activity.activeAmong(
            manager,
            dormant.map(({ entity }) => entity.customer_id),
            activitySince(today),
          );
    return rows.map(({ entity, extras }) => {
      // The status shown is the derived one (the stored one may wait for the nightly job).
      entity.customer_status_str = readCustomerStatus(entity.customer_status_str, {
        overdue: isOverdue(entity.open_due_date, today),
        recentActivity: active.has(entity.customer_id),
      });
      return this.presenter.present(entity, figures.read(extras));
    });
  }

  /**
   * user/insert or user/update for a main contact written through the customer's
   * `superuser_*` fields: a contact written this way is announced as any contact write is.
   */
  private async recordMainContactEvent(
    tx: Tx,
    ctx: RequestContext,
    userId: number,
    event: 'insert' | 'update',
  ): Promise<void> {
    const user = await this.presentContactById(tx.manager, userId);
    await this.events.record(tx, ctx, {
      contextStr: 'user',
      contextId: userId,
      event,
      data: event === 'insert' ? { user, the_users_password: null } : { user },
    });
  }

  private presentContactById(manager: EntityManager, userId: number): Promise<WireContact | null> {
    return presentStoredContact(manager, userId, this.wire, this.reference);
  }

  private async createMainContact(
    tx: Tx,
    ctx: RequestContext,
    customerId: number,
    dto: CreateCustomerDto | UpdateCustomerDto,
    now: Date,
  ): Promise<Contact> {
    const username = ('superuser_username' in dto && dto.superuser_username) || generatedUsername();
    await assertUsernameFree(tx.manager, username, undefined, 'superuser_username');
    const userId = await insertRow(tx.manager, Contact, {
      ...this.superuserColumns(dto),
      customer_id: customerId,
      username,
      user_type_id: 1,
      ...newRecordStamps(ctx, now),
    });
    await tx.manager.update(Customer, customerId, { superuser_id: userId });
    await this.revisions.record(tx, ctx, 'user', userId, 'Contact created as main contact');
    return await tx.manager.findOneOrFail(Contact, { where: { user_id: userId } });
  }

  private hasSuperuserFields(dto: CustomerFieldsDto & { superuser_username?: string }): boolean {
    return (
      Object.keys(SUPERUSER_FIELDS).some((f) => dto[f as keyof typeof SUPERUSER_FIELDS] !== undefined) ||
      dto.superuser_username !== undefined
    );
  }

  private superuserColumns(dto: CustomerFieldsDto): Partial<Contact> {
    const columns: Record<string, unknown> = {};
    for (const [field, column] of Object.entries(SUPERUSER_FIELDS)) {
      const value = dto[field as keyof typeof SUPERUSER_FIELDS];
      if (value !== undefined) columns[column] = value;
    }
    // A main contact's name is written as any contact's: split into its parts (as recorded).
    const contact = columns as Partial<Contact>;
    return { ...contact, ...nameColumns(contact, 'superuser_name') };
  }

  private assertReferences(dto: CreateCustomerDto | UpdateCustomerDto): void {
    this.reference.assertExists('language_id', dto.language_id);
    this.reference.assertExists('class_id', dto.class_id);
    this.reference.assertExists('admin_id', dto.admin_id);
    this.reference.assertExists('terms_id', dto.terms_id);
    if ('currency_id' in dto) this.reference.assertExists('currency_id', dto.currency_id);
    if ('brand_id' in dto) this.reference.assertExists('brand_id', dto.brand_id);
  }

  /** The parent must exist and must not be the customer itself or one of its descendants. */
  private async assertParentExists(m: EntityManager, parentId: number, customerId: number | null): Promise<void> {
    let cursor: number | null = parentId;
    for (let depth = 0; cursor !== null; depth++) {
      if (cursor === customerId || depth > 50) {
        throw ApiError.badRequest('Field "parent_customer_id": a customer cannot be its own ancestor.');
      }
      const row: Customer | null = await m.findOne(Customer, {
        where: { customer_id: cursor },
        select: { customer_id: true, parent_customer_id: true },
      });
      if (!row) {
        if (cursor === parentId)
          throw ApiError.badRequest(`Field "parent_customer_id": no customer with id ${parentId} exists.`);
        break;
      }
      cursor = row.parent_customer_id;
    }
  }

  private async assertOwnContact(m: EntityManager, customerId: number, userId: number): Promise<void> {
    const contact = await m.findOne(Contact, {
      where: { user_id: userId },
      select: { user_id: true, customer_id: true },
    });
    if (!contact || contact.customer_id !== customerId) {
      throw ApiError.badRequest(`Field "superuser_id": contact ${userId} is not a contact of this customer.`);
    }
  }
}

/** The first account date of the activity window that ends `today`. */
function activitySince(today: string): string {
  return addDays(today, -ACTIVITY_DAYS);
}
