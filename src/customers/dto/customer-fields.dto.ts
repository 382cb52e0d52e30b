import { AddressDto } from 'src/core/validation/address.dto';
import {
  BoolField,
  customFieldsDto,
  EnumField,
  IntField,
  StringListField,
  StrField,
} from 'src/core/validation/field-decorators';

/** Fields writable on both create and update (SPEC "Customer"). */
@customFieldsDto(20)
export class CustomerFieldsDto extends AddressDto {
  @IntField() parent_customer_id?: number | null;
  @StrField() external_key?: string | null;
  @StrField() company?: string | null;
  @IntField({ nullable: false }) language_id?: number;
  @IntField() class_id?: number | null;
  @IntField() admin_id?: number | null;
  @IntField() campaign_id?: number | null;
  @IntField({ nullable: false }) terms_id?: number;
  @StrField() superuser_email?: string | null;
  @StrField() superuser_name?: string | null;
  @StrField(128) superuser_first_name?: string | null;
  @StrField(128) superuser_last_name?: string | null;
  @StrField(64) superuser_phone?: string | null;
  @BoolField() no_taxes?: boolean;
  @BoolField() no_dunning?: boolean;
  @BoolField() no_latefees?: boolean;
  @BoolField() no_procfees?: boolean;
  @EnumField(['print', 'email']) invoice_delivery?: 'print' | 'email';
  @EnumField(['print', 'email']) dunning_delivery?: 'print' | 'email';
  @StrField(64) tax_ident?: string | null;
  @StringListField() tags?: string[] | null;
}

/** Fields the API returns for a customer but never accepts. */
export const CUSTOMER_READ_ONLY = [
  'customer_id',
  'token',
  'display_as',
  'currency_iso4217',
  'currency_symbol',
  'superuser_token',
  'bill_block',
  'ship_block',
  'write_datetime',
  'write_ipaddr',
  'mod_datetime',
  'mod_ipaddr',
  'class_name',
  'terms_name',
  'terms_days',
  'url_statementlink',
  'url_paymethodlink',
  'url_self',
  'admin_name',
  'admin_email',
  'customer_status_id',
  'customer_status_name',
  'customer_status_str',
  'customer_status_state',
  'default_paymethod',
  'default_creditcard_id',
  'default_ach_id',
  'total',
  'balance',
  'paid',
  'mrr',
  'arr',
  'bill_notes',
  'ship_notes',
  'custtype_id',
] as const;
