import { ActionCatalog } from 'src/core/actions/action-catalog';
import { MailOverridesDto } from 'src/mail/dto/mail-overrides.dto';
import { Injectable } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { isPlainObject } from 'src/core/validation/validate-body';
import { Customer } from 'src/customers/entities/customer.entity';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { mailOverrides, overriddenMail } from 'src/mail/mail-overrides';
import { MailTemplates } from 'src/mail/mail-templates';
import { MailService } from 'src/mail/mail.service';
import { InvoiceDelivery } from './entities/invoice-delivery.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceEvents } from './invoice-events';
import { billingEmailsOf, invoiceMailData } from './invoice-mail';
import { lockedInvoiceByRef } from './invoice-lock';
import { hasNetApplied, InvoiceExtensions } from './invoice-extensions';
import { InvoiceReader } from './invoice-reader';
import { InvoiceStatusUpdater } from './invoice-status-updater';
import { INVOICE_REF } from './invoice-ref';
import { InvoicesService } from './invoices.service';

/** Actions on one invoice (DESIGN §6 "Invoices"): void, email, print, collections (payments declare `pay`). */
@Injectable()
export class InvoiceActions {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly invoices: InvoicesService,
    private readonly reader: InvoiceReader,
    private readonly events: InvoiceEvents,
    private readonly statuses: InvoiceStatusUpdater,
    private readonly extensions: InvoiceExtensions,
    private readonly mail: MailService,
    private readonly templates: MailTemplates,
    catalog: ActionCatalog,
  ) {
    const none = { none: true } as const;
    catalog.object('invoice', 'void', { summary: 'Void the invoice', body: none }, (r, b, c) => this.void(r, b, c));
    catalog.object(
      'invoice',
      'email',
      { summary: 'Mail the invoice', body: { described: MailOverridesDto } },
      (r, b, c) => this.email(r, b, c),
    );
    catalog.object('invoice', 'print', { summary: 'Record the invoice as printed', body: none }, (r, b, c) =>
      this.print(r, b, c),
    );
    catalog.object('invoice', 'collections', { summary: 'Send the invoice to collections', body: none }, (r, b, c) =>
      this.collections(r, b, c),
    );
  }

  /** Balance 0, `closed-void`, `void_datetime`; events invoice/void and invoice/status. */
  private async void(ref: string, body: unknown, ctx: RequestContext): Promise<boolean> {
    noFields(body, 'void');
    await this.uow.run(async (tx) => {
      const invoice = await lockedInvoiceByRef(tx, ref);
      await this.invoices.assertOpen(tx, invoice, 'voided');
      const applied = (await this.extensions.appliedFor(tx.manager, [invoice.invoice_id])).get(invoice.invoice_id)!;
      if (hasNetApplied(applied)) {
        throw ApiError.badRequest('This invoice has payments or credits applied: unapply them before voiding it.');
      }
      await this.extensions.assertNothingInFlight(tx.manager, invoice.invoice_id, 'voided');
      await tx.manager.update(Invoice, invoice.invoice_id, { void_datetime: this.clock.now() });
      await this.revisions.record(tx, ctx, 'invoice', invoice.invoice_id, 'Invoice voided');
      await this.statuses.refresh(tx, ctx, [invoice.invoice_id]);
      await this.events.record(tx, ctx, invoice.invoice_id, 'void');
    });
    return true;
  }

  /** Mails the invoice to the given addresses, else to the customer's contacts; recorded in `sent`. */
  private async email(ref: string, body: unknown, ctx: RequestContext): Promise<boolean> {
    const fields = mailOverrides(body);
    await this.uow.run(async (tx) => {
      const invoice = await findByPathRef(tx.manager, INVOICE_REF, ref);
      const to = fields.email ?? (await billingEmailsOf(tx.manager, [invoice.customer_id])).get(invoice.customer_id)!;
      if (to.length === 0) {
        throw ApiError.badRequest('The customer has no contact with an e-mail address: send "email".');
      }
      if (!ctx.sendEmails) return; // _flag_emails=0: nothing is sent, so nothing is recorded as sent.
      const wire = await this.reader.full(tx.manager, invoice.invoice_id);
      const customer = await tx.manager.findOneBy(Customer, { customer_id: invoice.customer_id });
      const message = this.templates.render('invoice', invoiceMailData(wire, customer?.company ?? null));
      const mailId = await this.mail.send(
        tx,
        overriddenMail(message, fields, to, { contextStr: 'invoice', contextId: invoice.invoice_id }),
      );
      await this.recordDelivery(tx, invoice.invoice_id, 'email', to.join(', '), mailId);
      await this.revisions.record(tx, ctx, 'invoice', invoice.invoice_id, `Invoice e-mailed to ${to.join(', ')}`);
    });
    return true;
  }

  private async print(ref: string, body: unknown, ctx: RequestContext): Promise<boolean> {
    noFields(body, 'print');
    await this.uow.run(async (tx) => {
      const invoice = await findByPathRef(tx.manager, INVOICE_REF, ref);
      await this.recordDelivery(tx, invoice.invoice_id, 'print', null, null);
      await this.revisions.record(tx, ctx, 'invoice', invoice.invoice_id, 'Invoice printed');
    });
    return true;
  }

  /** `open-collections` until paid in full. */
  private async collections(ref: string, body: unknown, ctx: RequestContext): Promise<boolean> {
    noFields(body, 'collections');
    await this.uow.run(async (tx) => {
      const invoice = await lockedInvoiceByRef(tx, ref);
      await this.invoices.assertOpen(tx, invoice, 'sent to collections');
      await tx.manager.update(Invoice, invoice.invoice_id, { in_collections: true });
      await this.revisions.record(tx, ctx, 'invoice', invoice.invoice_id, 'Invoice sent to collections');
      await this.statuses.refresh(tx, ctx, [invoice.invoice_id]);
    });
    return true;
  }

  private async recordDelivery(
    tx: Tx,
    invoiceId: number,
    method: 'email' | 'print',
    to: string | null,
    mailMessageId: number | null,
  ): Promise<void> {
    await tx.manager.insert(InvoiceDelivery, {
      invoice_id: invoiceId,
      method,
      to_addr: to,
      mail_message_id: mailMessageId,
      write_datetime: this.clock.now(),
    });
  }
}

function noFields(body: unknown, action: string): void {
  if (body === undefined || body === null || body === '') return;
  if (!isPlainObject(body)) throw ApiError.badRequest('The request body must be a JSON object.');
  const keys = Object.keys(body);
  if (keys.length) throw ApiError.badRequest(`Invalid field: "${keys[0]}" is not a field of action ${action}.`);
}
