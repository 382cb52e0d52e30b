import { Inject, Injectable, Logger } from '@nestjs/common';
import Decimal from 'decimal.js';
import { IsNull, Not } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { formatAmount } from 'src/core/money/money-format';
import { accountDate } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Contact } from 'src/customers/entities/contact.entity';
import { Customer } from 'src/customers/entities/customer.entity';
import { Tx } from 'src/database/unit-of-work';
import { InvoiceDelivery } from 'src/invoices/entities/invoice-delivery.entity';
import { InvoiceReader } from 'src/invoices/invoice-reader';
import { MailTemplates } from 'src/mail/mail-templates';
import { MailService } from 'src/mail/mail.service';
import { SubscriptionActions } from 'src/subscriptions/subscription-actions';
import { InvoiceCollection } from '../collection/invoice-collection.entity';
import { dunningRetryAt } from './dunning-schedule';

/** What a declined collection charge tells the customer. */
export interface Decline {
  reason: string;
  /** How the charge was paid, as a transaction shows it (`Visa x0002`). */
  method: string;
}

/**
 * What follows a declined collection charge (DESIGN §6 "Billing runs"), in the unit that
 * settles it: the next retry (3, 7 and 14 days after the first decline), a reminder to the
 * customer at every decline (mailed, or recorded as printed for `dunning_delivery: print`;
 * in the invoice's `sent` either way) carrying the invoice's pay link, and after the last
 * retry, with DUNNING_CANCEL_AFTER_LAST_RETRY, the subscription cancelled for non-payment.
 * A customer with `no_dunning` gets none of it: no retry, no reminder, no cancellation.
 */
@Injectable()
export class Dunning {
  private readonly logger = new Logger('Dunning');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly invoices: InvoiceReader,
    private readonly mail: MailService,
    private readonly templates: MailTemplates,
    private readonly subscriptions: SubscriptionActions,
  ) {}

  /** Records the decline on the (locked) collection row and does what the schedule says. */
  async declined(tx: Tx, ctx: RequestContext, row: InvoiceCollection, decline: Decline): Promise<void> {
    const m = tx.manager;
    const now = this.clock.now();
    const customer = await m.findOneByOrFail(Customer, { customer_id: row.customer_id });
    const failures = row.failures + 1;
    const first = row.first_failed_datetime ?? now;
    const retryAt = customer.no_dunning ? null : dunningRetryAt(first, failures, this.config.timezone);
    await m.update(InvoiceCollection, row.invoice_collection_id, {
      status: retryAt ? 'due' : 'failed',
      failures,
      first_failed_datetime: first,
      next_attempt_datetime: retryAt,
      mod_datetime: now,
    });
    if (customer.no_dunning) return;
    const canceled =
      retryAt === null &&
      this.config.dunningCancelAfterLastRetry &&
      (await this.subscriptions.cancelForNonPayment(tx, ctx, row.package_id));
    await this.remind(tx, customer, row.invoice_id, decline, retryAt, canceled);
    this.logger.log(
      `Invoice ${row.invoice_id}: charge declined (${failures}), ${retryAt ? `retry ${retryAt.toISOString()}` : 'no retry left'}${canceled ? ', subscription cancelled' : ''}`,
    );
  }

  private async remind(
    tx: Tx,
    customer: Customer,
    invoiceId: number,
    decline: Decline,
    retryAt: Date | null,
    canceled: boolean,
  ): Promise<void> {
    const m = tx.manager;
    const now = this.clock.now();
    if (customer.dunning_delivery === 'print') {
      await m.insert(InvoiceDelivery, {
        invoice_id: invoiceId,
        method: 'print',
        to_addr: null,
        mail_message_id: null,
        write_datetime: now,
      });
      return;
    }
    const contacts = await m.find(Contact, {
      where: { customer_id: customer.customer_id, email: Not(IsNull()) },
      order: { user_id: 'ASC' },
    });
    const to = [...new Set(contacts.map((c) => (c.email as string).trim()).filter(Boolean))];
    if (to.length === 0) return; // nobody to tell; the decline and the retry stand
    const invoice = await this.invoices.full(m, invoiceId);
    const message = this.templates.render('dunning-reminder', {
      number: invoice.refnumber ?? invoiceId,
      customerName: customer.company,
      amount: formatAmount(String(invoice.currency_symbol), new Decimal(String(invoice.balance))),
      method: decline.method,
      reason: decline.reason,
      retryDate: retryAt ? accountDate(retryAt, this.wire.timezone) : null,
      canceled,
      final: retryAt === null && !canceled,
      payUrl: invoice.url_paylink,
    });
    const mailId = await this.mail.send(tx, {
      to,
      ...message,
      contextStr: 'invoice',
      contextId: invoiceId,
    });
    await m.insert(InvoiceDelivery, {
      invoice_id: invoiceId,
      method: 'email',
      to_addr: to.join(', '),
      mail_message_id: mailId,
      write_datetime: now,
    });
  }
}
