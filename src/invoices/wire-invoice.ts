import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { WireCustom10, WireCustom20 } from 'src/core/wire/wire-custom-fields';
import { InvoiceStatusStr } from './invoice-status';
import { WireDocument } from 'src/core/wire/wire-document';
import { WireItemLine } from 'src/items/wire-item';

/** What invoices and quotes show alike, beyond what subscriptions share with them. */
export class WireBilledDocument extends WireDocument {
  @ApiProperty({ type: 'number' }) subtotal: number;
  @ApiProperty({ type: 'number' }) taxes: number;
  @ApiProperty({ type: 'number' }) total: number;
  @ApiProperty({ type: 'integer', nullable: true }) package_id: number | null;
  @ApiProperty({ type: 'string' }) url_permalink: string;
  @ApiProperty({ type: 'string' }) url_pdflink: string;
  @ApiProperty({ type: 'string' }) url_paylink: string;
  @ApiProperty({ type: 'string', nullable: true }) refnumber: string | null;
  @ApiProperty({ type: 'string', nullable: true }) date: string | null;
  @ApiProperty({ type: 'string', nullable: true }) due_date: string | null;
  @ApiProperty({ type: 'string', nullable: true }) admin_name: string | null;
  @ApiProperty({ type: 'string' }) bill_block: string;
  @ApiProperty({ type: 'string' }) ship_block: string;
  @ApiProperty({ type: 'string', nullable: true }) memo: string | null;
}

/**
 * An invoice (SPEC "Invoice") on the wire, as InvoicePresenter writes it: money as numbers, dates and datetimes as
 * strings in the account zone, null where unset. It is the presenter's return type (a
 * field added there is a type error until declared here) and, through `@ApiProperty`, the
 * `response` of its envelope in the OpenAPI document.
 */
export class WireInvoice extends IntersectionType(WireBilledDocument, WireCustom20) {
  @ApiProperty({ type: 'integer' }) invoice_id: number;
  @ApiProperty({ type: 'string', nullable: true }) cycle_this_date: string | null;
  @ApiProperty({ type: 'string', nullable: true }) void_datetime: string | null;
  @ApiProperty({ type: 'string' }) invoice_status_name: string;
  @ApiProperty({ enum: ['open-unpaid', 'open-overdue', 'open-collections', 'closed-paid', 'closed-void'] })
  invoice_status_str: InvoiceStatusStr;
  @ApiProperty({ type: 'string' }) invoice_status_state: string;
  @ApiProperty({ type: 'number' }) credits: number;
  @ApiProperty({ type: 'number' }) payments: number;
  @ApiProperty({ type: 'number' }) applied: number;
  @ApiProperty({ type: 'number' }) sum_base: number;
  @ApiProperty({ type: 'number' }) sum_usage: number;
  @ApiProperty({ type: 'number' }) sum_onetime: number;
  @ApiProperty({ type: 'boolean' }) is_paid: boolean;
  @ApiProperty({ type: 'number' }) balance: number;
  @ApiProperty({ type: 'boolean' }) is_void: boolean;
  @ApiProperty({ type: 'integer' }) days_overdue: number;
  @ApiProperty({ type: 'boolean' }) is_overdue: boolean;
  @ApiProperty({ type: 'string', nullable: true, description: 'always null' }) delay_datetime: null;
  @ApiProperty({ type: 'string', nullable: true }) brand_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) class_name: string | null;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: 'string', nullable: true }) cycle_pre_from_date: string | null;
  @ApiProperty({ type: 'string', nullable: true }) cycle_pre_to_date: string | null;
  @ApiProperty({ type: 'string', nullable: true }) cycle_post_from_date: string | null;
  @ApiProperty({ type: 'string', nullable: true }) cycle_post_to_date: string | null;
  @ApiProperty({ type: 'number' }) writeoffs: number;
  @ApiProperty({ type: 'number' }) refunds: number;
  @ApiProperty({ type: 'number' }) overdue: number;
  @ApiProperty({ type: 'number' }) declines: number;
  @ApiProperty({ type: 'string', nullable: true }) paid_date: string | null;
  @ApiProperty({ type: 'integer' }) invoice_status_id: number;
}

/** A line with its price (invoice and quote lines). */
export class WirePricedLine extends WireItemLine {
  @ApiProperty({ type: 'boolean' }) is_base: boolean;
  @ApiProperty({ type: 'number' }) line_subtotal: number;
  @ApiProperty({ type: 'number' }) line_total: number;
}

/** One line of an invoice. */
export class WireInvoiceLine extends IntersectionType(WirePricedLine, WireCustom10) {
  @ApiProperty({ type: 'integer' }) invoice_id: number;
  @ApiProperty({ type: 'number' }) line_rate: number;
  @ApiProperty({ type: 'number' }) line_usage: number;
  @ApiProperty({ type: 'number' }) tax_taxable: number;
  @ApiProperty({ type: 'number' }) tax_taxed: number;
  @ApiProperty({ type: 'number' }) tax_total: number;
  @ApiProperty({ type: 'boolean' }) is_free: boolean;
  @ApiProperty({ type: 'boolean' }) is_setup: boolean;
  @ApiProperty({ type: 'boolean' }) is_usage: boolean;
  @ApiProperty({ type: 'boolean' }) is_recurring: boolean;
  @ApiProperty({ type: 'boolean' }) is_taxed: boolean;
  @ApiProperty({ type: 'string', nullable: true }) item_units: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) package_line_id: number | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'always null' }) package_line_external_key: null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'always null' }) package_obligation_id: null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'always null' }) package_line_first_obligation_id: null;
  @ApiProperty({ type: 'integer', nullable: true }) admin_id: number | null;
  @ApiProperty({ type: 'string' }) paycycle: string;
  @ApiProperty({ type: 'number', nullable: true }) line_prorate: number | null;
  @ApiProperty({ type: 'string', nullable: true }) usage_from: string | null;
  @ApiProperty({ type: 'string', nullable: true }) usage_to: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'always null' }) number_of_recurs_this: null;
  @ApiProperty({ type: 'string', nullable: true, description: 'always null' }) number_of_recurs_line: null;
  @ApiProperty({ type: 'integer', nullable: true }) tax_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) tax_group_id: number | null;
  @ApiProperty({ type: 'string', nullable: true }) tax_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) tax_group_name: string | null;
  @ApiProperty({ type: 'boolean' }) is_latefee: boolean;
  @ApiProperty({ type: 'boolean' }) is_obligation: boolean;
}

/** One entry of an invoice's payment schedule; `balance` is what is left of it. */
export class WireInvoiceScheduleEntry {
  @ApiProperty({ type: 'integer' }) invoice_schedule_id: number;
  @ApiProperty({ type: 'integer' }) invoice_id: number;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string' }) paymethod: string;
  @ApiProperty({ type: 'integer', nullable: true }) creditcard_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) ach_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) tokenized_id: number | null;
  @ApiProperty({ type: 'string', nullable: true }) due_date: string | null;
  @ApiProperty({ type: 'integer' }) days_overdue: number;
  @ApiProperty({ type: 'number' }) amount: number;
  @ApiProperty({ type: 'string' }) amount_or_percent_formatted: string;
  @ApiProperty({ type: 'number' }) balance: number;
  @ApiProperty({ type: 'string', nullable: true }) date: string | null;
  @ApiProperty({ type: 'string' }) url_paylink: string;
  @ApiProperty({ type: 'string' }) url_ttl_paylink: string;
}

/** One sending of an invoice (by mail or print). */
export class WireInvoiceDelivery {
  @ApiProperty({ type: 'integer' }) invoice_delivery_id: number;
  @ApiProperty({ enum: ['print', 'email'] }) method: 'print' | 'email';
  @ApiProperty({ type: 'string', nullable: true }) email: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) mail_message_id: number | null;
  @ApiProperty({ type: 'string', nullable: true }) sent_datetime: string | null;
}

/** A single invoice read: the overview with its lines, schedule and sendings. */
export class WireFullInvoice extends WireInvoice {
  @ApiProperty({ type: () => [WireInvoiceLine] }) line_items: WireInvoiceLine[];
  @ApiProperty({ type: () => [WireInvoiceScheduleEntry] }) schedule: WireInvoiceScheduleEntry[];
  @ApiProperty({ type: () => [WireInvoiceDelivery] }) sent: WireInvoiceDelivery[];
}
