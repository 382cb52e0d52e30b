import { Allow } from 'class-validator';
import { BodyRules } from 'src/core/validation/body-rules';
import { customFieldsDto, IntField, StrField } from 'src/core/validation/field-decorators';
import { TRANSACTION_CUSTOMER_REFS, TRANSACTION_READ_ONLY } from './record-transaction.dto';

/** POST /transaction?action=pay (SPEC "Payment request"). */
@customFieldsDto(5)
@BodyRules({ readOnly: TRANSACTION_READ_ONLY, requireData: true, extraAllowed: TRANSACTION_CUSTOMER_REFS })
export class PayRequestDto {
  @IntField() customer_id?: number;
  @Allow() amount?: unknown;
  @Allow() applied_to?: unknown;
  @Allow() paymethods?: unknown;
  @StrField() external_key?: string | null;
  @StrField(65535) memo?: string | null;
  @StrField() transaction_detail?: string | null;
}
