import { customFields10, customFields20 } from 'src/core/wire/custom-fields';
import { WireAddresses } from 'src/core/wire/wire-addresses';
import { InvoiceStatusStr } from './invoice-status';

/**
 * An invoice on the wire (SPEC "Invoice"), as InvoicePresenter writes it: floats (money)
 * as numbers, dates and datetimes as strings in the account zone, null where unset. It
 * is the presenter's return type: a field added there is a type error until declared here.
 */
export type WireInvoice = {
  invoice_id: number;
  currency_id: number;
  terms_id: number;
  token: string;
  refnumber: string | null;
  cycle_this_date: string | null;
  bill_notes: string | null;
  ship_notes: string | null;
  write_datetime: string | null;
  void_datetime: string | null;
  currency_symbol: string | null;
  currency_iso4217: string | null;
  invoice_status_name: string;
  invoice_status_str: InvoiceStatusStr;
  invoice_status_state: string;
  subtotal: number;
  total: number;
  taxes: number;
  credits: number;
  payments: number;
  applied: number;
  sum_base: number;
  sum_usage: number;
  sum_onetime: number;
  is_paid: boolean;
  balance: number;
  is_void: boolean;
  due_date: string | null;
  terms_name: string | null;
  terms_days: number | null;
  days_overdue: number;
  is_overdue: boolean;
  date: string | null;
  delay_datetime: null;
  bill_block: string;
  ship_block: string;
  url_permalink: string;
  url_paylink: string;
  url_pdflink: string;
  package_id: number | null;
  customer_id: number;
  external_key: string | null;
  mod_datetime: string | null;
  brand_id: number;
  brand_name: string | null;
  class_id: number | null;
  class_name: string | null;
  admin_id: number | null;
  admin_name: string | null;
  paycycle: string;
  paycycle_name: string | null;
  memo: string | null;
  tags: string[];
  cycle_pre_from_date: string | null;
  cycle_pre_to_date: string | null;
  cycle_post_from_date: string | null;
  cycle_post_to_date: string | null;
  writeoffs: number;
  refunds: number;
  overdue: number;
  /** Failed payment attempts. */
  declines: number;
  paid_date: string | null;
  invoice_status_id: number;
  url_self: string;
} & WireAddresses &
  ReturnType<typeof customFields20>;

/** A line item of an invoice on the wire (SPEC "Invoice", line items). */
export type WireInvoiceLine = {
  invoice_id: number;
  item_id: number;
  tierset_id: number | null;
  descrip: string | null;
  line_rate: number;
  line_quantity: number;
  line_usage: number;
  tax_taxable: number;
  tax_taxed: number;
  tax_total: number;
  is_base: boolean;
  is_free: boolean;
  is_setup: boolean;
  is_usage: boolean;
  is_recurring: boolean;
  is_taxed: boolean;
  item_name: string | null;
  item_external_key: string | null;
  item_token: string | null;
  item_accounting_sku: string | null;
  item_units: string | null;
  line_item_id: number;
  package_line_id: number | null;
  package_line_external_key: null;
  package_obligation_id: null;
  package_line_first_obligation_id: null;
  admin_id: number | null;
  paycycle: string;
  /** The prorated fraction of the period, when the line is prorated. */
  line_prorate: number | null;
  line_subtotal: number;
  line_total: number;
  usage_from: string | null;
  usage_to: string | null;
  number_of_recurs_this: null;
  number_of_recurs_line: null;
  tax_id: number | null;
  tax_group_id: number | null;
  tax_name: string | null;
  tax_group_name: string | null;
  is_latefee: boolean;
  is_obligation: boolean;
} & ReturnType<typeof customFields10>;

/** One entry of an invoice's payment schedule; `balance` is what is left of it. */
export type WireInvoiceScheduleEntry = {
  invoice_schedule_id: number;
  invoice_id: number;
  token: string;
  paymethod: string;
  creditcard_id: number | null;
  ach_id: number | null;
  tokenized_id: number | null;
  due_date: string | null;
  days_overdue: number;
  amount: number;
  amount_or_percent_formatted: string;
  balance: number;
  date: string | null;
  url_paylink: string;
  url_ttl_paylink: string;
};

/** One sending of an invoice (by mail or print). */
export type WireInvoiceDelivery = {
  invoice_delivery_id: number;
  method: 'email' | 'print';
  email: string | null;
  mail_message_id: number | null;
  sent_datetime: string | null;
};

/** A single invoice read: the overview with its lines, schedule and sendings. */
export type WireFullInvoice = WireInvoice & {
  line_items: WireInvoiceLine[];
  schedule: WireInvoiceScheduleEntry[];
  sent: WireInvoiceDelivery[];
};
