import { Injectable } from '@nestjs/common';
import { paycycleName } from 'src/billing/paycycles';
import { moneyToJson } from 'src/core/money/decimal';
import { addDays } from 'src/core/time/account-date';
import { customFields20 } from 'src/core/wire/custom-fields';
import { addressBlock, WireFormat } from 'src/core/wire/wire-format';
import { Item } from 'src/items/entities/item.entity';
import { MailMessage } from 'src/mail/entities/mail-message.entity';
import { LoadedTierset } from 'src/items/tierset-loader';
import { TiersetPresenter } from 'src/items/tierset.presenter';
import { ReferenceService } from 'src/reference/reference.service';
import { QuoteLine } from './entities/quote-line.entity';
import { Quote } from './entities/quote.entity';
import { QUOTE_STATUSES, QuoteStatusStr } from './quote-status';
import { WireQuote, WireQuoteLine, WireQuoteSent } from './wire-quote';

export type QuoteLineWithItem = QuoteLine & { item?: Item | null };

/** The wire shapes of a quote and its lines (SPEC "Quote"). */
@Injectable()
export class QuotePresenter {
  constructor(
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
    private readonly tiersets: TiersetPresenter,
  ) {}

  overview(q: Quote): WireQuote {
    const currency = this.reference.currency(q.currency_id);
    const terms = this.reference.terms(q.terms_id);
    const status = QUOTE_STATUSES[q.quote_status_str as QuoteStatusStr];
    const address = (prefix: 'bill' | 'ship') =>
      addressBlock({
        addr1: q[`${prefix}_addr1`],
        addr2: q[`${prefix}_addr2`],
        addr3: q[`${prefix}_addr3`],
        city: q[`${prefix}_city`],
        state: q[`${prefix}_state`],
        postcode: q[`${prefix}_postcode`],
        country: q[`${prefix}_country`],
      });
    return {
      quote_id: q.quote_id,
      customer_id: q.customer_id,
      refnumber: q.refnumber,
      external_key: q.external_key,
      token: q.token,
      nickname: q.nickname,
      paycycle: q.paycycle,
      paycycle_name: paycycleName(q.paycycle),
      date: this.wire.date(q.date),
      validuntil_date: this.wire.date(q.validuntil_date),
      due_date: this.wire.date(addDays(q.date, terms?.terms_days ?? 0)),
      holduntil_datetime_str: q.holduntil_datetime_str,
      currency_id: q.currency_id,
      currency_symbol: currency?.currency_symbol ?? null,
      currency_iso4217: currency?.currency_iso4217 ?? null,
      terms_id: q.terms_id,
      terms_name: terms?.terms_name ?? null,
      terms_days: terms?.terms_days ?? null,
      class_id: q.class_id,
      brand_id: q.brand_id,
      admin_id: q.admin_id,
      admin_name: this.reference.admin(q.admin_id)?.admin_name ?? null,
      bill_addr1: q.bill_addr1,
      bill_addr2: q.bill_addr2,
      bill_addr3: q.bill_addr3,
      bill_city: q.bill_city,
      bill_state: q.bill_state,
      bill_postcode: q.bill_postcode,
      bill_country: q.bill_country,
      bill_notes: q.bill_notes,
      ship_addr1: q.ship_addr1,
      ship_addr2: q.ship_addr2,
      ship_addr3: q.ship_addr3,
      ship_city: q.ship_city,
      ship_state: q.ship_state,
      ship_postcode: q.ship_postcode,
      ship_country: q.ship_country,
      ship_notes: q.ship_notes,
      bill_block: address('bill'),
      ship_block: address('ship'),
      url_acceptredirect: q.url_acceptredirect,
      url_rejectredirect: q.url_rejectredirect,
      memo: q.memo,
      ...customFields20(q),
      write_datetime: this.wire.datetime(q.write_datetime),
      mod_datetime: this.wire.datetime(q.mod_datetime),
      won_datetime: this.wire.datetime(q.won_datetime),
      lost_datetime: this.wire.datetime(q.lost_datetime),
      setup: moneyToJson(q.setup),
      subtotal: moneyToJson(q.subtotal),
      taxes: moneyToJson(q.taxes),
      total: moneyToJson(q.total),
      upfront: moneyToJson(q.upfront),
      quote_status_id: status.id,
      quote_status_name: status.name,
      quote_status_str: q.quote_status_str,
      quote_status_state: status.state,
      invoice_id: q.invoice_id,
      package_id: q.package_id,
      url_permalink: this.wire.pageUrl(`r/quote/view/${q.token}`),
      url_pdflink: this.wire.pageUrl(`r/quote/pdf/${q.token}`),
      url_paylink: this.wire.pageUrl(`r/quote/pay/${q.token}`),
      url_acceptlink: this.wire.pageUrl(`r/quote/accept/${q.token}`),
      url_rejectlink: this.wire.pageUrl(`r/quote/reject/${q.token}`),
      url_self: this.wire.apiUrl('quote', q.quote_id),
    };
  }

  line(l: QuoteLineWithItem, tierset: LoadedTierset | undefined): WireQuoteLine {
    const item = l.item ?? null;
    return {
      quote_id: l.quote_id,
      line_item_id: l.line_item_id,
      item_id: l.item_id,
      tierset_id: l.tierset_id,
      descrip: l.descrip,
      line_rate: moneyToJson(l.line_rate),
      line_quantity: moneyToJson(l.line_quantity),
      expire_recurs: l.expire_recurs,
      subscribe_prorate_from_datetime: this.wire.datetime(l.subscribe_prorate_from_datetime),
      subscribe_prorate_to_datetime: this.wire.datetime(l.subscribe_prorate_to_datetime),
      is_base: item?.item_type !== 'discount',
      item_name: item?.name ?? null,
      item_external_key: item?.external_key ?? null,
      item_token: item?.token ?? null,
      item_accounting_sku: item?.accounting_sku ?? null,
      line_subtotal: moneyToJson(l.line_subtotal),
      line_total: moneyToJson(l.line_total),
      ...customFields20(l),
      tierset: tierset ? this.tiersets.present(tierset) : null,
    };
  }

  /** The quote's `sent`: each message of its `email` action, as an invoice's `sent` shows one. */
  sent(messages: MailMessage[]): WireQuoteSent[] {
    return messages.map((msg) => ({
      mail_message_id: msg.mail_message_id,
      method: 'email',
      email: msg.to_addr,
      subject: msg.subject,
      status: msg.status,
      sent_datetime: this.wire.datetime(msg.write_datetime),
    }));
  }
}
