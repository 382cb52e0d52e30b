import { Allow } from 'class-validator';
import { customFieldsDto, IntField, StrField } from 'src/core/validation/field-decorators';

/** POST /transaction?action=pay (SPEC "Payment request"). */
@customFieldsDto(5)
export class PayRequestDto {
  @IntField() customer_id?: number;
  @Allow() amount?: unknown;
  @Allow() applied_to?: unknown;
  @Allow() paymethods?: unknown;
  @StrField() external_key?: string | null;
  @StrField(65535) memo?: string | null;
  @StrField() transaction_detail?: string | null;
}
