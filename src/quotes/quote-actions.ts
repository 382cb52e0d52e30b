import { ActionCatalog } from 'src/core/actions/action-catalog';
import { NoBodyDto } from 'src/core/validation/no-body.dto';
import { MailOverridesDto } from 'src/mail/dto/mail-overrides.dto';
import { Injectable } from '@nestjs/common';
import { IsNull, Not } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { ZERO } from 'src/core/money/decimal';
import { formatAmount } from 'src/core/money/money-format';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { modStamps } from 'src/core/context/record-stamps';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { RevisionService } from 'src/core/revisions/revision.service';
import { parseInputDatetime } from 'src/core/time/datetime-input';
import { WireFormat } from 'src/core/wire/wire-format';
import { Contact } from 'src/customers/entities/contact.entity';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { insertTierset } from 'src/items/tierset-writer';
import { mailOverrides, MailOverrides, overriddenMail } from 'src/mail/mail-overrides';
import { MailTemplates } from 'src/mail/mail-templates';
import { MailService } from 'src/mail/mail.service';
import { Customer } from 'src/customers/entities/customer.entity';
import { InvoiceDraftLine, InvoiceIssuer } from 'src/invoices/invoice-issuer';
import { InvoiceReader } from 'src/invoices/invoice-reader';
import { accountDate } from 'src/core/time/account-date';
import Decimal from 'decimal.js';
import { SubscriptionLineInput } from 'src/subscriptions/subscription-line-input';
import { SubscriptionReader } from 'src/subscriptions/subscription-reader';
import { SubscriptionsService } from 'src/subscriptions/subscriptions.service';
import { QuoteLine } from './entities/quote-line.entity';
import { Quote } from './entities/quote.entity';
import { QuoteEvents } from './quote-events';
import { quoteParts } from './quote-parts';
import { QuoteReader } from './quote-reader';
import { QUOTE_REF } from './quote-ref';
import { QuotesService } from './quotes.service';
import { fieldsOf } from 'src/core/wire/fields-of';
import { WireFullInvoice } from 'src/invoices/wire-invoice';
import { WireFullSubscription } from 'src/subscriptions/wire-subscription';

/** What a won quote became: the action's response (DESIGN §6 "Quotes"). */
export interface ConvertedTo {
  id: number;
  context_str: 'invoice' | 'package';
}

/** Actions on one quote: convert (accept), reject, email. */
@Injectable()
export class QuoteActions {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly revisions: RevisionService,
    private readonly quotes: QuotesService,
    private readonly reader: QuoteReader,
    private readonly events: QuoteEvents,
    private readonly subscriptions: SubscriptionsService,
    private readonly subscriptionReader: SubscriptionReader,
    private readonly mail: MailService,
    private readonly templates: MailTemplates,
    private readonly issuer: InvoiceIssuer,
    private readonly invoiceReader: InvoiceReader,
    catalog: ActionCatalog,
  ) {
    catalog.object(
      'quote',
      'convert',
      { summary: 'Accept the quote: an invoice or a subscription', body: { dto: NoBodyDto } },
      (r, d, c) => this.convert(r, d, c),
    );
    catalog.object('quote', 'reject', { summary: 'Reject the quote', body: { dto: NoBodyDto } }, (r, d, c) =>
      this.reject(r, d, c),
    );
    catalog.object(
      'quote',
      'email',
      { summary: 'Mail the quote', body: { described: MailOverridesDto } },
      (r, body, c) => this.email(r, mailOverrides(body), c),
    );
  }

  /**
   * Accepts the quote: a `one` quote becomes an invoice, any other a subscription with the
   * quote's lines and prices, held until `holduntil_datetime_str`. `closed-won`, events
   * quote/status and quote/won (with the created `invoices` or `packages`).
   */
  private async convert(ref: string, _dto: object, ctx: RequestContext): Promise<ConvertedTo> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const quote = await this.quotes.lockedByRef(tx, ref);
      this.quotes.assertOpen(quote, 'converted');
      const lines = await m.find(QuoteLine, { where: { quote_id: quote.quote_id }, order: { sort_order: 'ASC' } });
      const now = this.clock.now();
      let result: ConvertedTo;
      let created: { invoices?: WireFullInvoice[]; packages?: WireFullSubscription[] };
      if (quote.paycycle === 'one') {
        const invoiceId = await this.issueInvoice(tx, ctx, quote, lines);
        result = { id: invoiceId, context_str: 'invoice' };
        created = { invoices: [await this.invoiceReader.full(m, invoiceId)] };
        await m.update(Quote, quote.quote_id, { invoice_id: invoiceId });
      } else {
        const hold = quote.holduntil_datetime_str
          ? parseInputDatetime(quote.holduntil_datetime_str, this.wire.timezone)
          : null;
        const packageId = await this.subscriptions.createIn(tx, ctx, {
          customerId: quote.customer_id,
          columns: {
            paycycle: quote.paycycle,
            nickname: quote.nickname,
            currency_id: quote.currency_id,
            terms_id: quote.terms_id,
            class_id: quote.class_id,
            admin_id: quote.admin_id,
          },
          hold,
          lines: await Promise.all(lines.map((l, i) => this.subscriptionLine(tx, quote, l, i, now))),
        });
        result = { id: packageId, context_str: 'package' };
        created = { packages: [await this.subscriptionReader.full(m, packageId)] };
        await m.update(Quote, quote.quote_id, { package_id: packageId });
      }
      await m.update(Quote, quote.quote_id, {
        quote_status_str: 'closed-won',
        won_datetime: now,
        ...modStamps(ctx, now),
      });
      await this.revisions.record(
        tx,
        ctx,
        'quote',
        quote.quote_id,
        `Quote accepted: ${result.context_str} ${result.id}`,
      );
      await this.events.record(tx, ctx, quote.quote_id, ['status', 'won'], created);
      return result;
    });
  }

  /** `closed-lost`, `lost_datetime`; events quote/status and quote/lost. */
  private async reject(ref: string, _dto: object, ctx: RequestContext): Promise<true> {
    await this.uow.run(async (tx) => {
      const quote = await this.quotes.lockedByRef(tx, ref);
      this.quotes.assertOpen(quote, 'rejected');
      const now = this.clock.now();
      await tx.manager.update(Quote, quote.quote_id, {
        quote_status_str: 'closed-lost',
        lost_datetime: now,
        ...modStamps(ctx, now),
      });
      await this.revisions.record(tx, ctx, 'quote', quote.quote_id, 'Quote rejected');
      await this.events.record(tx, ctx, quote.quote_id, ['status', 'lost']);
    });
    return true;
  }

  /**
   * Mails the quote (template `quote`, with its view, PDF, accept and reject links) to the
   * given addresses, else to the customer's contacts; the action's overrides as the
   * invoice's. Each message shows in the quote's `sent`.
   */
  private async email(ref: string, overrides: MailOverrides, ctx: RequestContext): Promise<true> {
    await this.uow.run(async (tx) => {
      const quote = await findByPathRef(tx.manager, QUOTE_REF, ref);
      const contacts = await tx.manager.find(Contact, {
        where: { customer_id: quote.customer_id, email: Not(IsNull()) },
        order: { user_id: 'ASC' },
      });
      const to = overrides.email ?? [...new Set(contacts.map((c) => (c.email as string).trim()).filter(Boolean))];
      if (to.length === 0)
        throw ApiError.badRequest('The customer has no contact with an e-mail address: send "email".');
      if (!ctx.sendEmails) return; // _flag_emails=0: nothing is sent, so nothing is recorded as sent.
      const wire = await this.reader.full(tx.manager, quote.quote_id);
      const symbol = typeof wire.currency_symbol === 'string' ? wire.currency_symbol : '';
      const customer = await tx.manager.findOneBy(Customer, { customer_id: quote.customer_id });
      const message = this.templates.render('quote', {
        number: quote.refnumber ?? String(quote.quote_id),
        customerName: customer?.company ?? null,
        date: wire.date,
        validUntil: wire.validuntil_date,
        recurring: quote.paycycle !== 'one',
        paycycleWord: String(wire.paycycle_name).toLowerCase(),
        recurringTotal: formatAmount(symbol, quoteParts(fieldsOf(wire)).recurring),
        total: formatAmount(symbol, quote.total),
        upfront: formatAmount(symbol, quote.upfront),
        viewUrl: wire.url_permalink,
        pdfUrl: wire.url_pdflink,
        acceptUrl: wire.url_acceptlink,
        rejectUrl: wire.url_rejectlink,
      });
      await this.mail.send(
        tx,
        overriddenMail(message, overrides, to, { contextStr: 'quote', contextId: quote.quote_id }),
      );
      await this.revisions.record(tx, ctx, 'quote', quote.quote_id, `Quote e-mailed to ${to.join(', ')}`);
    });
    return true;
  }

  /** A `one` quote as an invoice with its lines at the quoted prices (setup fees as setup lines). */
  private async issueInvoice(tx: Tx, ctx: RequestContext, quote: Quote, lines: QuoteLine[]): Promise<number> {
    const customer = await tx.manager.findOneOrFail(Customer, { where: { customer_id: quote.customer_id } });
    const draft: InvoiceDraftLine[] = lines.flatMap((l) => {
      const quantity = l.line_rate !== null ? l.line_quantity : new Decimal(1);
      const rate = l.line_rate ?? l.line_subtotal;
      const line: InvoiceDraftLine = {
        origin: 'manual',
        item_id: l.item_id,
        line_rate: rate,
        line_quantity: quantity,
        descrip: l.descrip,
      };
      return l.line_setup.gt(0) ? [line, { origin: 'setup', item_id: l.item_id, line_rate: l.line_setup }] : [line];
    });
    return this.issuer.issue(tx, ctx, {
      customer,
      date: accountDate(this.clock.now(), this.wire.timezone),
      termsId: quote.terms_id,
      currencyId: quote.currency_id,
      lines: draft,
      fields: { class_id: quote.class_id, admin_id: quote.admin_id, paycycle: 'one', memo: quote.memo },
      // Issued by the server: the customer's open credit is applied to it (DESIGN §6 "Credits").
      credit: { memo: `Credit from quote ${quote.quote_id}` },
    });
  }

  /** A quote line as a subscription line at the same price (a fixed `line_rate` becomes a flat tierset). */
  private async subscriptionLine(
    tx: Tx,
    quote: Quote,
    l: QuoteLine,
    i: number,
    now: Date,
  ): Promise<SubscriptionLineInput> {
    const tiersetId =
      l.line_rate !== null
        ? await insertTierset(
            tx.manager,
            {
              currency_id: quote.currency_id,
              setup: l.line_setup,
              base: l.line_rate,
              minimum: ZERO,
              percent: ZERO,
              paycycle: 'evy',
              pricemodel: 'fla',
              tiers: [],
            },
            { itemId: null, isCurrent: false, now },
          )
        : (l.tierset_id ?? undefined);
    return {
      path: `line_items[${i}]`,
      cancel: false,
      item_id: l.item_id,
      descrip: l.descrip,
      line_quantity: l.line_quantity,
      tierset_id: tiersetId,
      trial_days: 0,
      expire_recurs: l.expire_recurs,
      external_key: null,
      nickname: '',
      custom: { custom_1: l.custom_1, custom_2: l.custom_2, custom_3: l.custom_3 },
    };
  }
}
