import { Injectable } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { PendingEvent, RecordedEvent, RecordedEventListener } from 'src/core/events/event-recorder';
import { insertAtCommit } from 'src/database/deferred-inserts';
import { Tx } from 'src/database/unit-of-work';
import { MailTemplates } from 'src/mail/mail-templates';
import { MailService } from 'src/mail/mail.service';
import { InvoiceDelivery } from './entities/invoice-delivery.entity';
import { billingEmailsOf, invoiceMailData } from './invoice-mail';
import { WireInvoice } from './wire-invoice';

interface IssuedData {
  invoice: WireInvoice;
  customer: { customer_id: number; company?: string | null; invoice_delivery?: string };
}

/**
 * DESIGN §6 "Billing runs": each invoice the server issues from a subscription (billing
 * runs, subscription actions) is mailed once to the billing contacts of a customer whose
 * `invoice_delivery` is `email` (template `invoice`), and shows in the invoice's `sent`.
 * It listens to invoice/insert inside the issuing transaction: the message is recorded
 * (`queued`) with the invoice, so both commit or neither does; it leaves after the commit,
 * as a job, and the mail sweeper sends one whose job was lost with its process. A rerun
 * issues no invoice twice (the cycle's key), so it mails none twice.
 */
@Injectable()
@RecordedEventListener()
export class InvoiceIssueMail implements RecordedEventListener {
  constructor(
    private readonly mail: MailService,
    private readonly templates: MailTemplates,
    private readonly clock: Clock,
  ) {}

  /** The batch's customers' addresses are read once, in one statement. */
  async wants(tx: Tx, events: readonly PendingEvent[]): Promise<boolean[]> {
    const candidates = events.map((event) => (mailable(event) ? (event.data as unknown as IssuedData) : null));
    const ids = candidates.flatMap((data) => (data ? [data.customer.customer_id] : []));
    const emails = await this.emailsOf(tx, ids);
    return candidates.map((data) => (data ? (emails.get(data.customer.customer_id)?.length ?? 0) > 0 : false));
  }

  handle(tx: Tx, event: RecordedEvent): Promise<void> {
    return this.mailIssued(tx, event);
  }

  /** The customers' addresses, in one statement. */
  private emailsOf(tx: Tx, customerIds: number[]): Promise<Map<number, string[]>> {
    return billingEmailsOf(tx.manager, [...new Set(customerIds)]);
  }

  private async mailIssued(tx: Tx, event: RecordedEvent): Promise<void> {
    const { invoice, customer } = event.data as unknown as IssuedData;
    const to = (await this.emailsOf(tx, [customer.customer_id])).get(customer.customer_id) ?? [];
    if (to.length === 0) return;
    const message = this.templates.render('invoice', invoiceMailData(invoice, customer.company ?? null));
    const mailId = await this.mail.queue(tx, {
      to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      contextStr: 'invoice',
      contextId: invoice.invoice_id,
    });
    await insertAtCommit(tx.manager, InvoiceDelivery, {
      invoice_id: invoice.invoice_id,
      method: 'email',
      to_addr: to.join(', '),
      mail_message_id: mailId,
      write_datetime: this.clock.now(),
    });
  }
}

/** An invoice/insert of a subscription's invoice, for a customer who takes invoices by e-mail. */
function mailable(event: PendingEvent): boolean {
  if (event.contextStr !== 'invoice' || event.event !== 'insert' || event.suppressEmails) return false;
  const data = event.data as Partial<IssuedData>;
  return (
    data.invoice !== undefined &&
    data.invoice.package_id !== null &&
    data.invoice.package_id !== undefined &&
    data.customer?.invoice_delivery === 'email'
  );
}
