import { Doc, DocRequire } from 'src/core/validation/doc-fields';
import { InvoiceLineInputDto } from './invoice-line.dto';
import { AddressWithNotesDto } from 'src/core/validation/address.dto';
import { Allow } from 'class-validator';
import { BodyRules } from 'src/core/validation/body-rules';
import {
  customFieldsDto,
  DateInputField,
  IntField,
  StringListField,
  StrField,
  EnumField,
} from 'src/core/validation/field-decorators';
import { PAYCYCLES } from 'src/billing/paycycles';

export const INVOICE_CUSTOMER_REFS = ['customer_id', 'customer_token', 'customer_external_key'] as const;

/** Fields the API returns for an invoice but never accepts. */
export const INVOICE_READ_ONLY = [
  'invoice_id',
  'package_id',
  'brand_id',
  'brand_name',
  'token',
  'write_datetime',
  'mod_datetime',
  'void_datetime',
  'currency_symbol',
  'currency_iso4217',
  'class_name',
  'paycycle_name',
  'terms_name',
  'terms_days',
  'admin_name',
  'bill_block',
  'ship_block',
  'cycle_pre_from_date',
  'cycle_pre_to_date',
  'cycle_this_date',
  'cycle_post_from_date',
  'cycle_post_to_date',
  'url_permalink',
  'url_pdflink',
  'url_paylink',
  'url_self',
  'is_paid',
  'is_void',
  'is_overdue',
  'due_date',
  'days_overdue',
  'paid_date',
  'balance',
  'applied',
  'total',
  'subtotal',
  'taxes',
  'credits',
  'payments',
  'writeoffs',
  'refunds',
  'overdue',
  'sum_base',
  'sum_usage',
  'sum_onetime',
  'declines',
  'invoice_status_name',
  'invoice_status_str',
  'invoice_status_state',
  'invoice_status_id',
  'schedule',
  'sent',
  'delay_datetime',
] as const;

/** Invoice fields writable on update (SPEC "Invoice"); `date` too, as the samples send it. */
@customFieldsDto(20)
@BodyRules({
  readOnly: [...INVOICE_READ_ONLY, 'refnumber', 'currency_id', 'class_id', ...INVOICE_CUSTOMER_REFS],
})
export class UpdateInvoiceDto extends AddressWithNotesDto {
  @StrField() external_key?: string | null;
  @EnumField(PAYCYCLES) paycycle?: string;
  @IntField({ nullable: false }) terms_id?: number;
  @IntField() admin_id?: number | null;
  @DateInputField() date?: string;
  @StrField(65535) memo?: string | null;
  @StringListField() tags?: string[] | null;
  /** Checked by parseLineItems. */
  @Allow() @Doc({ type: () => [InvoiceLineInputDto] }) line_items?: unknown;
}

/** POST /invoice: the update fields plus the create-only ones; the customer comes as a payload ref. */
@DocRequire('line_items')
@BodyRules({ readOnly: INVOICE_READ_ONLY, requireData: true, extraAllowed: INVOICE_CUSTOMER_REFS })
export class CreateInvoiceDto extends UpdateInvoiceDto {
  @StrField(64) refnumber?: string | null;
  @IntField({ nullable: false }) currency_id?: number;
  @IntField() class_id?: number | null;
}
