import { ActionBody, ActionCatalog } from 'src/core/actions/action-catalog';
import { NoBodyDto } from 'src/core/validation/no-body.dto';
import { MailOverridesDto } from 'src/mail/dto/mail-overrides.dto';
import { Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { DataSource, In, IsNull, Not } from 'typeorm';
import { firstCycleStartOnOrAfter } from 'src/billing/cycles/cycle-calendar';
import { Contact } from 'src/customers/entities/contact.entity';
import { Customer } from 'src/customers/entities/customer.entity';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { parseInputDate } from 'src/core/time/datetime-input';
import { WireFormat } from 'src/core/wire/wire-format';
import { modStamps } from 'src/core/context/record-stamps';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { mailOverrides, MailOverrides, overriddenMail } from 'src/mail/mail-overrides';
import { MailTemplates } from 'src/mail/mail-templates';
import { MailService } from 'src/mail/mail.service';
import { CancelDto, HoldDto, InvoiceNowDto, PaycycleDto, SuspendDto, UpgradeDto } from './dto/subscription-actions.dto';
import { SubscriptionPaymethodDto } from './dto/subscription-fields.dto';
import { PendingProration } from './entities/pending-proration.entity';
import { SubscriptionLine } from './entities/subscription-line.entity';
import { Subscription } from './entities/subscription.entity';
import { SubscriptionEvents, SubscriptionEvent } from './subscription-events';
import { parseSubscriptionLines } from './subscription-line-input';
import { SubscriptionLineWriter } from './subscription-line-writer';
import { lockedSubscriptionByRef } from './subscription-lock';
import { SUBSCRIPTION_REF } from './subscription-ref';
import { SubscriptionPaymethodInput } from './subscription-paymethod-input';
import { ProrationCharge, SubscriptionProration } from './subscription-proration';
import { SubscriptionInvoicing } from './subscription-invoicing';
import { SubscriptionCycleBilling } from './subscription-cycle-billing';
import { SubscriptionEndings } from './subscription-endings';
import { SubscriptionMrr } from './subscription-mrr';
import { SubscriptionReader } from './subscription-reader';
import { isCancelled, isSuspended, SUBSCRIPTION_STATUSES } from './subscription-status';
import { SubscriptionsService } from './subscriptions.service';

/**
 * Actions on one subscription (DESIGN §6 "Subscriptions"), each in one unit of work with
 * its revision and the events of SPEC's table; a line change fires package/upgrade and
 * never package/update.
 */
@Injectable()
export class SubscriptionActions {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly revisions: RevisionService,
    private readonly subscriptions: SubscriptionsService,
    private readonly reader: SubscriptionReader,
    private readonly events: SubscriptionEvents,
    private readonly lineWriter: SubscriptionLineWriter,
    private readonly paymethods: SubscriptionPaymethodInput,
    private readonly proration: SubscriptionProration,
    private readonly mrr: SubscriptionMrr,
    private readonly invoicing: SubscriptionInvoicing,
    private readonly cycleBilling: SubscriptionCycleBilling,
    private readonly endings: SubscriptionEndings,
    private readonly mail: MailService,
    private readonly templates: MailTemplates,
    catalog: ActionCatalog,
  ) {
    const on = <D>(
      name: string,
      summary: string,
      body: ActionBody<D>,
      run: (ref: string, dto: D, ctx: RequestContext) => Promise<unknown>,
    ): void => catalog.object('package', name, { summary, body }, run);
    on('upgrade', 'Change lines (add, replace, remove), with prorations', { dto: UpgradeDto }, (r, d, c) =>
      this.upgrade(r, d, c),
    );
    on('cancel', 'Cancel now or at a future cancel_date', { dto: CancelDto }, (r, d, c) => this.cancel(r, d, c));
    on('suspend', 'Suspend billing', { dto: SuspendDto }, (r, d, c) => this.suspend(r, d, c));
    on('unsuspend', 'Resume a suspended subscription', { dto: NoBodyDto }, (r, d, c) => this.unsuspend(r, d, c));
    on('hold', 'Hold invoicing until a date', { dto: HoldDto }, (r, d, c) => this.hold(r, d, c));
    on('paycycle', 'Change the paycycle', { dto: PaycycleDto }, (r, d, c) => this.paycycle(r, d, c));
    on('paymethod', 'Change the payment method', { dto: SubscriptionPaymethodDto }, (r, d, c) =>
      this.paymethod(r, d, c),
    );
    catalog.objectAlias('package', 'setPayMethod', 'paymethod');
    on('welcome', 'Mail the welcome message', { described: MailOverridesDto }, (r, body, c) =>
      this.welcome(r, mailOverrides(body, 'welcome'), c),
    );
    on('invoice', 'Bill the next cycle now', { dto: InvoiceNowDto }, (r, d, c) => this.invoice(r, d, c));
  }

  /**
   * Replaces (`line_item_id` + `item_id`: the old line is cancelled, the new one gets a new
   * id), adds (no `line_item_id`) and removes (`{line_item_id, cancel: true}`) lines, with
   * prorations of the billed cycle when asked (`subscribe_prorate`, `cancel_prorate`, also
   * per line as the recorded calls send them).
   */
  private async upgrade(ref: string, dto: UpgradeDto, ctx: RequestContext): Promise<true> {
    const lines = parseSubscriptionLines(dto.line_items, this.wire.timezone, true);
    const when = dto.subscribe_prorate_cycle ?? 'next';
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      const sub = await lockedSubscriptionByRef(tx, ref);
      this.assertNotCancelled(sub, 'upgraded');
      const current = new Map(
        (await m.find(SubscriptionLine, { where: { package_id: sub.package_id, cancel_datetime: IsNull() } })).map(
          (l) => [l.line_item_id, l],
        ),
      );
      const named = new Set<number>();
      for (const line of lines) {
        if (line.line_item_id === undefined) continue;
        if (!current.has(line.line_item_id)) {
          throw ApiError.badRequest(
            `Field "${line.path}.line_item_id": line ${line.line_item_id} is not a line of this subscription.`,
          );
        }
        if (named.has(line.line_item_id)) {
          throw ApiError.badRequest(
            `Field "${line.path}.line_item_id": line ${line.line_item_id} is named more than once.`,
          );
        }
        named.add(line.line_item_id);
      }
      const now = this.clock.now();
      const removed = lines.filter((l) => l.line_item_id !== undefined);
      if (removed.length) {
        await m.update(
          SubscriptionLine,
          { line_item_id: In(removed.map((l) => l.line_item_id!)) },
          { cancel_datetime: now },
        );
      }
      const added = lines.filter((l) => !l.cancel);
      const written = added.length ? await this.lineWriter.insert(m, sub.package_id, sub.currency_id, added, now) : [];

      const cycle = this.proration.billedCycle(sub, now);
      if (cycle) {
        const prorated: Array<{ line: SubscriptionLine; sign: 1 | -1 }> = [];
        added.forEach((l, i) => {
          if (l.subscribe_prorate ?? dto.subscribe_prorate) prorated.push({ line: written[i], sign: 1 });
        });
        for (const l of removed) {
          if (l.cancel_prorate ?? dto.cancel_prorate) prorated.push({ line: current.get(l.line_item_id!)!, sign: -1 });
        }
        const charges = await this.proration.charges(m, cycle, now, prorated);
        await this.applyProrations(tx, ctx, sub, charges, when);
      }
      await m.update(Subscription, sub.package_id, modStamps(ctx, now));
      await this.mrr.refresh(m, sub.package_id);
      await this.revisions.record(tx, ctx, 'package', sub.package_id, 'Subscription lines changed');
      await this.events.record(tx, ctx, sub.package_id, ['upgrade']);
    });
    return true;
  }

  /**
   * Cancels now (`canceled-manual`, no further invoice) or at a future `cancel_date`; at
   * that moment (SubscriptionEndings) the unused part of the billed cycle is credited with
   * `cancel_prorate` and the usage since the last cycle start goes on a final invoice.
   */
  private async cancel(ref: string, dto: CancelDto, ctx: RequestContext): Promise<true> {
    const date = this.subscriptions.datetimeOf('cancel_date', dto.cancel_date);
    const now = this.clock.now();
    if (date && DateTime.fromJSDate(date, { zone: this.wire.timezone }).startOf('day') < this.today()) {
      throw ApiError.badRequest('Invalid field "cancel_date": the date is in the past.');
    }
    const at = date && date > now ? date : now;
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      const sub = await lockedSubscriptionByRef(tx, ref);
      this.assertNotCancelled(sub, 'cancelled');
      const immediate = at.getTime() === now.getTime();
      await this.endings.schedule(tx, ctx, sub, at, { cancelProrate: dto.cancel_prorate === true });
      await m.update(Subscription, sub.package_id, {
        package_status_str: 'canceled-manual',
        cancel_datetime: at,
        cancel_reason: dto.cancel_reason ?? null,
        ...(immediate ? { next_invoice_datetime: null } : {}),
        ...modStamps(ctx, now),
      });
      await this.mrr.refresh(m, sub.package_id);
      await this.revisions.record(
        tx,
        ctx,
        'package',
        sub.package_id,
        immediate ? 'Subscription cancelled' : `Subscription to be cancelled on ${this.wire.datetime(at)}`,
      );
      await this.events.record(tx, ctx, sub.package_id, immediate ? ['status'] : ['update']);
    });
    return true;
  }

  /**
   * Dunning gave up (DUNNING_CANCEL_AFTER_LAST_RETRY): `canceled-nonpayment` at once, no
   * further invoice, event package/status; in the caller's unit. False when it was
   * cancelled already (its own cancellation stands).
   */
  async cancelForNonPayment(tx: Tx, ctx: RequestContext, packageId: number): Promise<boolean> {
    const sub = await lockedSubscriptionByRef(tx, String(packageId));
    if (isCancelled(sub)) return false;
    const now = this.clock.now();
    await tx.manager.update(Subscription, sub.package_id, {
      package_status_str: 'canceled-nonpayment',
      cancel_datetime: now,
      cancel_reason: 'Non-payment',
      next_invoice_datetime: null,
      ...modStamps(ctx, now),
    });
    await this.mrr.refresh(tx.manager, sub.package_id);
    await this.revisions.record(tx, ctx, 'package', sub.package_id, 'Subscription cancelled for non-payment');
    await this.events.record(tx, ctx, sub.package_id, ['status']);
    return true;
  }

  /** No invoices from `suspendfrom_datetime` (default now) until `suspendto_datetime` (none: until unsuspended). */
  private async suspend(ref: string, dto: SuspendDto, ctx: RequestContext): Promise<true> {
    const now = this.clock.now();
    const from = this.subscriptions.datetimeOf('suspendfrom_datetime', dto.suspendfrom_datetime) ?? now;
    const to = this.subscriptions.datetimeOf('suspendto_datetime', dto.suspendto_datetime) ?? null;
    if (to && to <= from) {
      throw ApiError.badRequest('Invalid field "suspendto_datetime": must be after the start of the suspension.');
    }
    await this.uow.run(async (tx) => {
      const sub = await lockedSubscriptionByRef(tx, ref);
      this.assertNotCancelled(sub, 'suspended');
      const changes = { suspendfrom_datetime: from, suspendto_datetime: to };
      await this.changeWithStatus(tx, ctx, sub, changes, 'Subscription suspended');
    });
    return true;
  }

  /** Ends a suspension; billing resumes at the next cycle start, without back-billing. */
  private async unsuspend(ref: string, _dto: object, ctx: RequestContext): Promise<true> {
    await this.uow.run(async (tx) => {
      const sub = await lockedSubscriptionByRef(tx, ref);
      if (sub.suspendfrom_datetime === null) throw ApiError.badRequest('This subscription is not suspended.');
      const changes = {
        suspendfrom_datetime: null,
        suspendto_datetime: null,
        ...this.resumeAfter(sub, this.clock.now()),
      };
      await this.changeWithStatus(tx, ctx, sub, changes, 'Subscription unsuspended');
    });
    return true;
  }

  /** No invoice until `holduntil_datetime`; billing then resumes at the next cycle start. */
  private async hold(ref: string, dto: HoldDto, ctx: RequestContext): Promise<true> {
    if (dto.holduntil_datetime === undefined) {
      throw ApiError.badRequest('A required parameter was missing: "holduntil_datetime".');
    }
    const until = this.subscriptions.datetimeOf('holduntil_datetime', dto.holduntil_datetime)!;
    await this.uow.run(async (tx) => {
      const sub = await lockedSubscriptionByRef(tx, ref);
      this.assertNotCancelled(sub, 'held');
      await tx.manager.update(Subscription, sub.package_id, {
        holduntil_datetime: until,
        ...this.resumeAfter(sub, until),
        ...modStamps(ctx, this.clock.now()),
      });
      await this.revisions.record(
        tx,
        ctx,
        'package',
        sub.package_id,
        `Subscription held until ${this.wire.datetime(until)}`,
      );
      await this.events.record(tx, ctx, sub.package_id, ['update']);
    });
    return true;
  }

  /** A new paycycle on the same anchor; the next invoice is the new paycycle's first cycle start not yet billed. */
  private async paycycle(ref: string, dto: PaycycleDto, ctx: RequestContext): Promise<true> {
    if (dto.paycycle === undefined) throw ApiError.badRequest('A required parameter was missing: "paycycle".');
    const paycycle = dto.paycycle;
    await this.uow.run(async (tx) => {
      const sub = await lockedSubscriptionByRef(tx, ref);
      this.assertNotCancelled(sub, 'changed');
      const next =
        sub.next_invoice_datetime === null
          ? null
          : firstCycleStartOnOrAfter(sub.start_datetime, paycycle, sub.next_invoice_datetime, this.wire.timezone);
      await tx.manager.update(Subscription, sub.package_id, {
        paycycle,
        next_invoice_datetime: next,
        ...modStamps(ctx, this.clock.now()),
      });
      await this.mrr.refresh(tx.manager, sub.package_id);
      await this.revisions.record(tx, ctx, 'package', sub.package_id, `Paycycle changed to ${paycycle}`);
      await this.events.record(tx, ctx, sub.package_id, paycycle === sub.paycycle ? [] : ['paycycle']);
    });
    return true;
  }

  private async paymethod(ref: string, dto: SubscriptionPaymethodDto, ctx: RequestContext): Promise<true> {
    await this.uow.run(async (tx) => {
      const sub = await lockedSubscriptionByRef(tx, ref);
      const method = await this.paymethods.read(tx.manager, sub.customer_id, dto);
      if (!method) throw ApiError.badRequest('A required parameter was missing: "paymethod".');
      await tx.manager.update(Subscription, sub.package_id, { ...method, ...modStamps(ctx, this.clock.now()) });
      await this.revisions.record(tx, ctx, 'package', sub.package_id, `Payment method set to ${method.paymethod}`);
      await this.events.record(tx, ctx, sub.package_id, ['paymethod']);
    });
    return true;
  }

  /** Bills the next cycle now (DESIGN §6 action `invoice`, `date` optional); event package/generate. */
  private async invoice(ref: string, dto: InvoiceNowDto, ctx: RequestContext): Promise<true> {
    const date = dto.date === undefined ? undefined : parseInputDate(dto.date, this.wire.timezone);
    if (date === null) throw ApiError.badRequest('Invalid field "date": not a valid date.');
    // Usage from USAGE_URL is asked before the unit (never inside it), for the cycle as read now.
    const before = await findByPathRef(this.dataSource.manager, SUBSCRIPTION_REF, ref);
    this.assertInvoiceable(before);
    const usage = await this.cycleBilling.pullUsage(this.dataSource.manager, before);
    await this.uow.run(async (tx) => {
      const sub = await lockedSubscriptionByRef(tx, ref);
      this.assertInvoiceable(sub);
      if (usage && sub.next_invoice_datetime?.getTime() !== before.next_invoice_datetime?.getTime()) {
        throw ApiError.badRequest('The subscription was billed meanwhile; try again.');
      }
      await this.cycleBilling.billNextCycle(tx, ctx, sub, { date, usage });
    });
    return true;
  }

  /**
   * Mails the welcome message to the given addresses, else to the customer's contacts with an
   * e-mail address; the body takes the overrides of the invoice `email` action.
   */
  private async welcome(ref: string, overrides: MailOverrides, ctx: RequestContext): Promise<true> {
    await this.uow.run(async (tx) => {
      const sub = await lockedSubscriptionByRef(tx, ref);
      const contacts = await tx.manager.find(Contact, {
        where: { customer_id: sub.customer_id, email: Not(IsNull()) },
        order: { user_id: 'ASC' },
      });
      const to = overrides.email ?? [...new Set(contacts.map((c) => (c.email as string).trim()).filter(Boolean))];
      if (to.length === 0) {
        throw ApiError.badRequest('The customer has no contact with an e-mail address: send "email".');
      }
      if (ctx.sendEmails) {
        const pkg = await this.reader.full(tx.manager, sub.package_id);
        const customer = await tx.manager.findOneByOrFail(Customer, { customer_id: sub.customer_id });
        const message = this.templates.render('welcome', {
          nickname: pkg.nickname,
          paycycle: String(pkg.paycycle_name).toLowerCase(),
          nextInvoice: typeof pkg.next_invoice_datetime === 'string' ? pkg.next_invoice_datetime : 'none',
          statementUrl: this.wire.pageUrl(`r/statement/i/${customer.token}`),
          paymethodUrl: this.wire.pageUrl(`r/paymethod/i/${customer.token}`),
        });
        await this.mail.send(
          tx,
          overriddenMail(message, overrides, to, { contextStr: 'package', contextId: sub.package_id }),
        );
      }
      await this.revisions.record(tx, ctx, 'package', sub.package_id, `Welcome message sent to ${to.join(', ')}`);
    });
    return true;
  }

  /** `now`: on an invoice at once (through the invoicer); `next`: kept for the next cycle's invoice. */
  private async applyProrations(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    charges: ProrationCharge[],
    when: 'now' | 'next',
  ): Promise<void> {
    const due = charges.filter((c) => !c.amount.isZero());
    if (due.length === 0) return;
    if (when === 'now') {
      await this.invoicing.issueProrations(tx, ctx, sub, due);
      return;
    }
    const now = this.clock.now();
    await tx.manager.insert(
      PendingProration,
      due.map((c) => ({
        package_id: sub.package_id,
        package_line_id: c.line.line_item_id,
        item_id: c.line.item_id,
        tierset_id: c.line.tierset_id,
        descrip: c.line.descrip,
        amount: c.amount,
        line_prorate: c.fraction,
        invoice_id: null,
        write_datetime: now,
      })),
    );
  }

  /** Changes that may move the status: package/status when they do, package/update otherwise. */
  private async changeWithStatus(
    tx: Tx,
    ctx: RequestContext,
    sub: Subscription,
    changes: Partial<Subscription>,
    note: string,
  ): Promise<void> {
    const now = this.clock.now();
    const before = isSuspended(sub, now);
    await tx.manager.update(Subscription, sub.package_id, { ...changes, ...modStamps(ctx, now) });
    await this.mrr.refresh(tx.manager, sub.package_id);
    const after = isSuspended({ ...sub, ...changes }, now);
    await this.revisions.record(tx, ctx, 'package', sub.package_id, note);
    const events: SubscriptionEvent[] = before === after ? ['update'] : ['status'];
    await this.events.record(tx, ctx, sub.package_id, events);
  }

  /** Where billing resumes after a suspension or hold ending at `end` (never before what is billed). */
  private resumeAfter(sub: Subscription, end: Date): Partial<Subscription> {
    if (sub.next_invoice_datetime === null || sub.next_invoice_datetime >= end) return {};
    return {
      next_invoice_datetime: firstCycleStartOnOrAfter(sub.start_datetime, sub.paycycle, end, this.wire.timezone),
    };
  }

  private assertInvoiceable(sub: Subscription): void {
    this.assertNotCancelled(sub, 'invoiced');
    if (isSuspended(sub, this.clock.now())) throw ApiError.badRequest('This subscription is suspended.');
  }

  private assertNotCancelled(sub: Subscription, what: string): void {
    if (!isCancelled(sub)) return;
    const status = sub.package_status_str as keyof typeof SUBSCRIPTION_STATUSES;
    throw ApiError.badRequest(
      `This subscription is ${SUBSCRIPTION_STATUSES[status].name.toLowerCase()} (${status}) and cannot be ${what}.`,
    );
  }

  private today(): DateTime {
    return DateTime.fromJSDate(this.clock.now(), { zone: this.wire.timezone }).startOf('day');
  }
}
