import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { paycycleName } from 'src/billing/paycycles';
import { moneyToJson } from 'src/core/money/decimal';
import { formatAmount } from 'src/core/money/money-format';
import { daysBetween } from 'src/core/time/account-date';
import { addressBlock, WireFormat } from 'src/core/wire/wire-format';
import { Item } from 'src/items/entities/item.entity';
import { ReferenceService } from 'src/reference/reference.service';
import { GroupTax } from 'src/taxes/taxes.service';
import { InvoiceDelivery } from './entities/invoice-delivery.entity';
import { InvoiceLine } from './entities/invoice-line.entity';
import { InvoiceSchedule } from './entities/invoice-schedule.entity';
import { Invoice } from './entities/invoice.entity';
import { InvoiceApplied } from './invoice-extensions';
import { InvoiceFigures } from './invoice-figures';
import { INVOICE_STATUSES } from './invoice-status';
import { scheduleBalances } from './schedule-balances';
import { customFields10, customFields20 } from 'src/core/wire/custom-fields';
import { WireInvoice, WireInvoiceDelivery, WireInvoiceLine, WireInvoiceScheduleEntry } from './wire-invoice';

/** A line with the item columns a read of lines for the wire loads (LINE_ITEM_COLUMNS). */
export type LineWithItem = InvoiceLine & { item?: Pick<Item, 'item_id' | (typeof LINE_ITEM_COLUMNS)[number]> | null };

/** The item columns `line` presents: all a read of lines for the wire needs to join. */
export const LINE_ITEM_COLUMNS = [
  'name',
  'external_key',
  'token',
  'accounting_sku',
  'units',
] as const satisfies ReadonlyArray<keyof Item>;

const num = moneyToJson;

/** The wire shapes of an invoice, its lines, schedule and deliveries (field order as recorded). */
@Injectable()
export class InvoicePresenter {
  constructor(
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
  ) {}

  /** The overview: what lists return, and the head of a single read. */
  overview(i: Invoice, applied: InvoiceApplied, figures: InvoiceFigures): WireInvoice {
    const currency = this.reference.currency(i.currency_id);
    const terms = this.reference.terms(i.terms_id);
    const admin = this.reference.admin(i.admin_id);
    const status = INVOICE_STATUSES[figures.status];
    return {
      invoice_id: i.invoice_id,
      currency_id: i.currency_id,
      terms_id: i.terms_id,
      token: i.token,
      refnumber: i.refnumber,
      cycle_this_date: this.wire.date(i.cycle_this_date),
      bill_addr1: i.bill_addr1,
      bill_addr2: i.bill_addr2,
      bill_addr3: i.bill_addr3,
      bill_city: i.bill_city,
      bill_state: i.bill_state,
      bill_postcode: i.bill_postcode,
      bill_country: i.bill_country,
      bill_notes: i.bill_notes,
      ship_addr1: i.ship_addr1,
      ship_addr2: i.ship_addr2,
      ship_addr3: i.ship_addr3,
      ship_city: i.ship_city,
      ship_state: i.ship_state,
      ship_postcode: i.ship_postcode,
      ship_country: i.ship_country,
      ship_notes: i.ship_notes,
      ...customFields20(i),
      write_datetime: this.wire.datetime(i.write_datetime),
      void_datetime: this.wire.datetime(i.void_datetime),
      currency_symbol: currency?.currency_symbol ?? null,
      currency_iso4217: currency?.currency_iso4217 ?? null,
      invoice_status_name: status.name,
      invoice_status_str: figures.status,
      invoice_status_state: status.state,
      subtotal: num(i.subtotal),
      total: num(i.total),
      taxes: num(i.taxes),
      credits: num(applied.credits),
      payments: num(applied.payments),
      applied: num(figures.applied),
      sum_base: num(i.sum_base),
      sum_usage: num(i.sum_usage),
      sum_onetime: num(i.sum_onetime),
      is_paid: figures.is_paid,
      balance: num(figures.balance),
      is_void: figures.is_void,
      due_date: this.wire.date(i.due_date),
      terms_name: terms?.terms_name ?? null,
      terms_days: terms?.terms_days ?? null,
      days_overdue: figures.days_overdue,
      is_overdue: figures.is_overdue,
      date: this.wire.date(i.date),
      delay_datetime: null,
      bill_block: addressBlock({
        addr1: i.bill_addr1,
        addr2: i.bill_addr2,
        addr3: i.bill_addr3,
        city: i.bill_city,
        state: i.bill_state,
        postcode: i.bill_postcode,
        country: i.bill_country,
      }),
      ship_block: addressBlock({
        addr1: i.ship_addr1,
        addr2: i.ship_addr2,
        addr3: i.ship_addr3,
        city: i.ship_city,
        state: i.ship_state,
        postcode: i.ship_postcode,
        country: i.ship_country,
      }),
      url_permalink: this.wire.pageUrl(`r/invoice/view/${i.token}`),
      url_paylink: this.wire.pageUrl(`r/trans/pay/${i.token}`),
      url_pdflink: this.wire.pageUrl(`r/invoice/pdf/${i.token}`),
      package_id: i.package_id,
      customer_id: i.customer_id,
      external_key: i.external_key,
      mod_datetime: this.wire.datetime(i.mod_datetime),
      brand_id: i.brand_id,
      brand_name: this.reference.brand(i.brand_id)?.brand_name ?? null,
      class_id: i.class_id,
      class_name: this.reference.accountClass(i.class_id)?.class_name ?? null,
      admin_id: i.admin_id,
      admin_name: admin?.admin_name ?? null,
      paycycle: i.paycycle,
      paycycle_name: paycycleName(i.paycycle),
      memo: i.memo,
      tags: i.tags ?? [],
      cycle_pre_from_date: this.wire.date(i.cycle_pre_from_date),
      cycle_pre_to_date: this.wire.date(i.cycle_pre_to_date),
      cycle_post_from_date: this.wire.date(i.cycle_post_from_date),
      cycle_post_to_date: this.wire.date(i.cycle_post_to_date),
      writeoffs: num(applied.writeoffs),
      refunds: num(applied.refunds),
      overdue: num(figures.overdue),
      declines: applied.declines,
      paid_date: applied.paid_date,
      invoice_status_id: status.id,
      url_self: this.wire.apiUrl('invoice', i.invoice_id),
    };
  }

  line(l: LineWithItem, taxes: Map<number, GroupTax>): WireInvoiceLine {
    const item = l.item ?? null;
    const tax = l.tax_group_id === null ? undefined : taxes.get(l.tax_group_id);
    return {
      invoice_id: l.invoice_id,
      item_id: l.item_id,
      tierset_id: l.tierset_id,
      descrip: l.descrip,
      line_rate: num(l.line_rate),
      line_quantity: num(l.line_quantity),
      line_usage: num(l.line_usage),
      tax_taxable: num(l.tax_taxable),
      tax_taxed: num(l.tax_taxed),
      tax_total: num(l.tax_total),
      is_base: l.is_base,
      is_free: l.is_free,
      is_setup: l.is_setup,
      is_usage: l.is_usage,
      is_recurring: l.is_recurring,
      is_taxed: l.is_taxed,
      ...customFields10(l),
      item_name: item?.name ?? null,
      item_external_key: item?.external_key ?? null,
      item_token: item?.token ?? null,
      item_accounting_sku: item?.accounting_sku ?? null,
      item_units: item?.units ?? null,
      line_item_id: l.line_item_id,
      package_line_id: l.package_line_id,
      package_line_external_key: null,
      package_obligation_id: null,
      package_line_first_obligation_id: null,
      admin_id: l.admin_id,
      paycycle: l.paycycle,
      line_prorate: num(l.line_prorate),
      line_subtotal: num(l.line_subtotal),
      line_total: num(l.line_total),
      usage_from: this.wire.datetime(l.usage_from),
      usage_to: this.wire.datetime(l.usage_to),
      number_of_recurs_this: null,
      number_of_recurs_line: null,
      tax_id: l.tax_id,
      tax_group_id: l.tax_group_id,
      tax_name: tax?.tax_name ?? null,
      tax_group_name: tax?.tax_group_name ?? null,
      is_latefee: l.is_latefee,
      is_obligation: l.is_obligation,
    };
  }

  /**
   * Schedule entries; money applied to the invoice pays them in due-date order, so each
   * entry's balance is what is left of it.
   */
  schedule(i: Invoice, entries: InvoiceSchedule[], figures: InvoiceFigures, today: string): WireInvoiceScheduleEntry[] {
    const symbol = this.reference.currency(i.currency_id)?.currency_symbol ?? '';
    const paid = figures.is_void ? new Decimal(Infinity) : i.total.minus(figures.balance);
    return scheduleBalances(entries, paid).map(({ entry: s, balance }) => {
      const late = daysBetween(s.due_date, today);
      return {
        invoice_schedule_id: s.invoice_schedule_id,
        invoice_id: s.invoice_id,
        token: s.token,
        paymethod: s.paymethod,
        creditcard_id: s.creditcard_id,
        ach_id: s.ach_id,
        tokenized_id: s.tokenized_id,
        due_date: this.wire.date(s.due_date),
        days_overdue: balance.gt(0) && late > 0 ? late : 0,
        amount: num(s.amount),
        amount_or_percent_formatted: formatAmount(symbol, s.amount),
        balance: num(balance),
        date: this.wire.date(s.due_date),
        url_paylink: this.wire.pageUrl(`r/trans/pay/${i.token}/${s.token}`),
        url_ttl_paylink: this.wire.pageUrl(`r/trans/pay/${i.token}/${s.token}`),
      };
    });
  }

  sent(deliveries: InvoiceDelivery[]): WireInvoiceDelivery[] {
    return deliveries.map((d) => ({
      invoice_delivery_id: d.invoice_delivery_id,
      method: d.method,
      email: d.to_addr,
      mail_message_id: d.mail_message_id,
      sent_datetime: this.wire.datetime(d.write_datetime),
    }));
  }
}
