import { Doc, DocRequire } from 'src/core/validation/doc-fields';
import { QuoteLineInputDto } from './quote-line.dto';
import { AddressWithNotesDto } from 'src/core/validation/address.dto';
import { Allow } from 'class-validator';
import { PAYCYCLES } from 'src/billing/paycycles';
import { BodyRules } from 'src/core/validation/body-rules';
import { customFieldsDto, DateInputField, EnumField, IntField, StrField } from 'src/core/validation/field-decorators';

/** The paycycles a quote may have (SPEC "Quote"): `one` or a recurring one. */
export const QUOTE_PAYCYCLES = PAYCYCLES.filter((code) => code !== 'evy');

export const QUOTE_CUSTOMER_REFS = ['customer_id', 'customer_token', 'customer_external_key'] as const;

export const QUOTE_READ_ONLY = [
  'quote_id',
  'token',
  'write_datetime',
  'mod_datetime',
  'currency_symbol',
  'currency_iso4217',
  'terms_name',
  'terms_days',
  'paycycle_name',
  'admin_name',
  'bill_block',
  'ship_block',
  'url_permalink',
  'url_pdflink',
  'url_self',
  'url_acceptlink',
  'url_paylink',
  'url_rejectlink',
  'won_datetime',
  'lost_datetime',
  'due_date',
  'setup',
  'total',
  'upfront',
  'subtotal',
  'taxes',
  'quote_status_name',
  'quote_status_str',
  'quote_status_state',
  'quote_status_id',
] as const;

/** Quote fields writable on update (SPEC "Quote"); `customer_id` too, as the samples send it. */
@customFieldsDto(20)
@BodyRules({ readOnly: QUOTE_READ_ONLY, extraAllowed: QUOTE_CUSTOMER_REFS })
export class UpdateQuoteDto extends AddressWithNotesDto {
  @StrField(64) refnumber?: string | null;
  @StrField() external_key?: string | null;
  @EnumField(QUOTE_PAYCYCLES) paycycle?: string;
  @StrField() nickname?: string;
  @StrField(64) holduntil_datetime_str?: string | null;
  @IntField({ nullable: false }) terms_id?: number;
  @IntField() class_id?: number | null;
  @IntField() admin_id?: number | null;
  @StrField(65535) memo?: string | null;
  /** Checked by parseQuoteLines. */
  @Allow() @Doc({ type: () => [QuoteLineInputDto] }) line_items?: unknown;
}

/** POST /quote: the update fields plus the create-only ones. */
@DocRequire('paycycle', 'line_items')
@BodyRules({ readOnly: QUOTE_READ_ONLY, requireData: true, extraAllowed: QUOTE_CUSTOMER_REFS })
export class CreateQuoteDto extends UpdateQuoteDto {
  @DateInputField() date?: string;
  @DateInputField() validuntil_date?: string | null;
  @IntField({ nullable: false }) currency_id?: number;
  @IntField({ nullable: false }) brand_id?: number;
  @StrField(1024) url_acceptredirect?: string | null;
  @StrField(1024) url_rejectredirect?: string | null;
}
