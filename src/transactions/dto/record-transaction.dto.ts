import { Doc, DocDecimal, DocRequire } from 'src/core/validation/doc-fields';
import { APPLIED_TO_SCHEMA, WithAppliedTo } from './applied-to.dto';
import { Allow } from 'class-validator';
import { BodyRules } from 'src/core/validation/body-rules';
import { customFieldsDto, DateInputField, EnumField, IntField, StrField } from 'src/core/validation/field-decorators';

/** How a payment or a recorded transaction may name its customer besides `customer_id`. */
export const TRANSACTION_CUSTOMER_REFS = ['customer_token', 'customer_external_key'] as const;

/** Fields a transaction read returns but a write never takes. */
export const TRANSACTION_READ_ONLY = [
  'transaction_id',
  'parent_transaction_id',
  'transaction_batch_id',
  'brand_id',
  'gateway_type',
  'gateway_nickname',
  'gateway_err_code',
  'gateway_err_detail',
  'gateway_opts',
  'token',
  'currency_id',
  'currency_iso4217',
  'currency_symbol',
  'fee',
  'applied',
  'unapplied',
  'transaction_status_name',
  'transaction_status_str',
  'transaction_status_state',
  'transaction_type_name',
  'transaction_ipaddr',
  'void_datetime',
  'url_self',
] as const;

/** POST /transaction: a credit memo or an offline payment (SPEC "Transaction"). */
@DocRequire('transaction_type', 'gateway_method', 'amount')
@WithAppliedTo()
@customFieldsDto(5)
@BodyRules({ readOnly: TRANSACTION_READ_ONLY, requireData: true, extraAllowed: TRANSACTION_CUSTOMER_REFS })
export class RecordTransactionDto {
  @IntField() customer_id?: number;
  @IntField() gateway_id?: number | null;
  @IntField({ min: 0, nullable: false }) gateway_status?: number;
  @StrField() gateway_transid?: string | null;
  @StrField(32, false) gateway_method?: string;
  @StrField() gateway_msg?: string | null;
  @StrField() external_key?: string | null;
  @Allow() @DocDecimal('refunds are negative', 25) amount?: unknown;
  @DateInputField() transaction_date?: string;
  @DateInputField() transaction_datetime?: string;
  @EnumField(['pay', 'ref', 'cre', 'spl']) transaction_type?: string;
  @StrField(64) transaction_method?: string | null;
  @StrField() transaction_detail?: string | null;
  @StrField(65535) memo?: string | null;
  @Allow() @Doc({ ...APPLIED_TO_SCHEMA, description: 'or `auto_apply`' }) applied_to?: unknown;
  @EnumField(['oldest_first', 'newest_first', 'best_fit']) auto_apply?: 'oldest_first' | 'newest_first' | 'best_fit';
}
