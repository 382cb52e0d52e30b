import { Doc, DocDecimal } from 'src/core/validation/doc-fields';
import { APPLIED_TO_SCHEMA, PaymethodInputDto, WithAppliedTo } from './applied-to.dto';
import { Allow } from 'class-validator';
import { BodyRules } from 'src/core/validation/body-rules';
import { customFieldsDto, IntField, StrField } from 'src/core/validation/field-decorators';
import { TRANSACTION_CUSTOMER_REFS, TRANSACTION_READ_ONLY } from './record-transaction.dto';

/** POST /transaction?action=pay (SPEC "Payment request"). */
@WithAppliedTo()
@customFieldsDto(5)
@BodyRules({ readOnly: TRANSACTION_READ_ONLY, requireData: true, extraAllowed: TRANSACTION_CUSTOMER_REFS })
export class PayRequestDto {
  @IntField() customer_id?: number;
  @Allow() @DocDecimal('required unless `applied_to` names an invoice', 49) amount?: unknown;
  @Allow() @Doc(APPLIED_TO_SCHEMA) applied_to?: unknown;
  @Allow()
  @Doc({
    type: () => [PaymethodInputDto],
    description: 'default: the subscription, then the customer default, then all',
  })
  paymethods?: unknown;
  @StrField() external_key?: string | null;
  @StrField(65535) memo?: string | null;
  @StrField() transaction_detail?: string | null;
}
