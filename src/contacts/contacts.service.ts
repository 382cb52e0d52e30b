import { Inject, Injectable } from '@nestjs/common';
import { hash } from 'argon2';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { EventRecorder } from 'src/core/events/event-recorder';
import { applyListQuery, applyWhere } from 'src/core/query';
import { assertExternalKeyFree, externalKeyAfterDelete } from 'src/core/refs/external-key';
import { findByPathRef, RefTarget, resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { CUSTOMER_REF, CustomersService } from 'src/customers/customers.service';
import { Customer } from 'src/customers/entities/customer.entity';
import { insertRow } from 'src/database/insert-row';
import { modStamps, newRecordStamps } from 'src/core/context/record-stamps';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { MailTemplates } from 'src/mail/mail-templates';
import { MailService } from 'src/mail/mail.service';
import { ReferenceService } from 'src/reference/reference.service';
import { assertUsernameFree, generatedUsername, nameColumns } from 'src/customers/contact-writer';
import { contactName, presentContact, presentStoredContact } from 'src/customers/contact.presenter';
import { CONTACT_QUERY_FIELDS } from './contact.query-fields';
import { ContactFieldsDto, CreateContactDto } from './dto/contact-fields.dto';
import { Contact } from 'src/customers/entities/contact.entity';
import { PortalLinksService } from './portal-links.service';
import { WireContact } from 'src/customers/wire-contact';

export const CONTACT_REF: RefTarget<Contact> = { entity: Contact, idColumn: 'user_id', resource: 'user' };

/**
 * `the_users_password` of user/insert (SPEC "Events") when the contact was created with a
 * password: that one was set, never what it is (a webhook leaves the process and is logged
 * by its receiver); the same eight characters whatever its length. null when none was set.
 */
export const PASSWORD_SET_MASK = '********';

@Injectable()
export class ContactsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly revisions: RevisionService,
    private readonly reference: ReferenceService,
    private readonly wire: WireFormat,
    private readonly customers: CustomersService,
    private readonly mail: MailService,
    private readonly templates: MailTemplates,
    private readonly links: PortalLinksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(ctx: RequestContext, dto: CreateContactDto, body: Record<string, unknown>): Promise<number> {
    this.reference.assertExists('user_type_id', dto.user_type_id);
    const passwordHash = dto.password === undefined ? null : await hash(dto.password);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const customerId = await resolvePayloadRef(m, CUSTOMER_REF, body, 'customer');
      if (customerId === undefined || customerId === null) {
        throw ApiError.badRequest(
          'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
        );
      }
      await assertExternalKeyFree(m, Contact, 'user_id', dto.external_key, 'user');
      const username = dto.username ?? generatedUsername();
      await assertUsernameFree(m, username);
      const { password: _password, customer_id: _customer, ...fields } = dto;
      const userId = await insertRow(m, Contact, {
        ...fields,
        ...nameColumns(dto),
        customer_id: customerId,
        username,
        password_hash: passwordHash,
        user_type_id: dto.user_type_id ?? 1,
        ...newRecordStamps(ctx, this.clock.now()),
      });
      const claimed = await this.customers.claimMainContact(tx, customerId, userId);
      await this.revisions.record(tx, ctx, 'user', userId, 'Contact created');
      const user = await this.presentById(m, userId);
      await this.events.record(tx, ctx, {
        contextStr: 'user',
        contextId: userId,
        event: 'insert',
        data: { user, the_users_password: dto.password === undefined ? null : PASSWORD_SET_MASK },
      });
      await this.events.record(tx, ctx, {
        contextStr: 'customer',
        contextId: customerId,
        event: 'join',
        data: { user_id: null, customer: await this.customers.presentById(m, customerId), user },
      });
      if (claimed) await this.customers.mainContactChanged(tx, ctx, customerId);
      return userId;
    });
  }

  async update(ctx: RequestContext, ref: string, dto: ContactFieldsDto): Promise<number> {
    this.reference.assertExists('user_type_id', dto.user_type_id);
    const passwordHash = dto.password === undefined ? undefined : await hash(dto.password);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const contact = await findByPathRef(m, CONTACT_REF, ref);
      const id = contact.user_id;
      await assertExternalKeyFree(m, Contact, 'user_id', dto.external_key, 'user', id);
      if (dto.username !== undefined) await assertUsernameFree(m, dto.username, id);
      const { password: _password, ...fields } = dto;
      await m.update(Contact, id, {
        ...fields,
        ...nameColumns(dto),
        ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
        ...modStamps(ctx, this.clock.now()),
      });
      await this.revisions.record(tx, ctx, 'user', id, 'Contact updated');
      await this.events.record(tx, ctx, {
        contextStr: 'user',
        contextId: id,
        event: 'update',
        data: { user: await this.presentById(m, id) },
      });
      return id;
    });
  }

  async remove(ctx: RequestContext, ref: string): Promise<true> {
    await this.uow.run(async (tx) => {
      const contact = await findByPathRef(tx.manager, CONTACT_REF, ref);
      await this.deleteContact(tx, ctx, contact, 'Contact deleted');
      // The customer is left without a main contact: its main contact changed (SPEC Events: super).
      if (await this.customers.releaseMainContact(tx, contact.user_id)) {
        await this.customers.mainContactChanged(tx, ctx, contact.customer_id);
      }
    });
    return true;
  }

  /** Every contact of a customer that is being deleted goes with it (DESIGN §6 "Customer deletion"). */
  async removeAllOf(tx: Tx, ctx: RequestContext, customerId: number): Promise<void> {
    const contacts = await tx.manager.find(Contact, { where: { customer_id: customerId }, order: { user_id: 'ASC' } });
    for (const contact of contacts) await this.deleteContact(tx, ctx, contact, 'Contact deleted with its customer');
  }

  /** Soft-deletes one contact: revision and user/delete with the contact as it was. */
  private async deleteContact(tx: Tx, ctx: RequestContext, contact: Contact, note: string): Promise<void> {
    const id = contact.user_id;
    const user = await this.presentById(tx.manager, id);
    const now = this.clock.now();
    await tx.manager.update(Contact, id, {
      // The portal username is freed for reuse; the external key follows EXTERNAL_KEY_ON_DELETE.
      username: `deleted-${contact.token}-${id}`,
      external_key: externalKeyAfterDelete(contact.external_key, this.config.externalKeyOnDelete, contact.token),
      deleted_datetime: now,
      ...modStamps(ctx, now),
    });
    await this.revisions.record(tx, ctx, 'user', id, note);
    await this.events.record(tx, ctx, { contextStr: 'user', contextId: id, event: 'delete', data: { user } });
  }

  async findOne(ref: string): Promise<WireContact> {
    const contact = await findByPathRef(this.dataSource.manager, CONTACT_REF, ref);
    return this.presentById(this.dataSource.manager, contact.user_id);
  }

  async idOf(ref: string): Promise<number> {
    return (await findByPathRef(this.dataSource.manager, CONTACT_REF, ref)).user_id;
  }

  async list(query: Record<string, unknown>): Promise<WireContact[]> {
    const qb = this.dataSource.manager
      .createQueryBuilder(Contact, 'u')
      .leftJoinAndMapOne('u.customer', Customer, 'uc', 'uc.customer_id = u.customer_id');
    applyListQuery(qb, CONTACT_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'u.user_id', dir: 'ASC' },
    });
    const rows = (await qb.getMany()) as Array<Contact & { customer?: Customer | null }>;
    return rows.map((row) => presentContact(row, row.customer ?? null, this.wire, this.reference));
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(Contact, 'u');
    applyWhere(qb, CONTACT_QUERY_FIELDS, query.where, this.wire.timezone);
    return qb.getCount();
  }

  /** Sets a password (and mails it), or mails a reset link; `_flag_emails=0` sends nothing. */
  async password(ctx: RequestContext, ref: string, password: string | undefined): Promise<true> {
    const passwordHash = password === undefined ? undefined : await hash(password);
    await this.uow.run(async (tx) => {
      const contact = await findByPathRef(tx.manager, CONTACT_REF, ref);
      const wantsMail = ctx.sendEmails;
      if (wantsMail && !contact.email) {
        throw ApiError.badRequest(
          'This contact has no e-mail address to send the password message to (send _flag_emails=0 to skip it).',
        );
      }
      if (passwordHash !== undefined) {
        await tx.manager.update(Contact, contact.user_id, {
          password_hash: passwordHash,
          ...modStamps(ctx, this.clock.now()),
        });
        await this.revisions.record(tx, ctx, 'user', contact.user_id, 'Password set');
        if (wantsMail) {
          await this.mailContact(tx, contact, 'password-set', {
            username: contact.username,
            password,
            signInUrl: this.wire.pageUrl('portal'),
          });
        }
        return;
      }
      await this.revisions.record(tx, ctx, 'user', contact.user_id, 'Password reset requested');
      if (wantsMail) {
        const link = await this.links.issue(tx, contact.user_id, 'password-reset', 'password');
        await this.mailContact(tx, contact, 'password-reset', { link });
      }
    });
    return true;
  }

  /** A single-use portal login URL, valid 5 minutes. */
  async loginUrl(ctx: RequestContext, ref: string, destination: string | undefined): Promise<string> {
    return this.uow.run(async (tx) => {
      const contact = await findByPathRef(tx.manager, CONTACT_REF, ref);
      await this.revisions.record(tx, ctx, 'user', contact.user_id, 'Login URL issued');
      return this.links.issue(tx, contact.user_id, 'login', destination ?? null);
    });
  }

  async presentById(manager: EntityManager, userId: number): Promise<WireContact> {
    const user = await presentStoredContact(manager, userId, this.wire, this.reference);
    if (!user) throw ApiError.notFound('user');
    return user;
  }

  private async mailContact(
    tx: Tx,
    contact: Contact,
    template: 'password-set' | 'password-reset',
    data: Record<string, unknown>,
  ): Promise<void> {
    const message = this.templates.render(template, { name: contactName(contact) || contact.username, ...data });
    await this.mail.send(tx, {
      to: [contact.email as string],
      ...message,
      contextStr: 'user',
      contextId: contact.user_id,
    });
  }
}
