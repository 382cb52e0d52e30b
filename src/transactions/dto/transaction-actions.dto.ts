import { DocDecimal, DocRequired } from 'src/core/validation/doc-fields';
import { APPLIED_TO_SCHEMA, WithAppliedTo } from './applied-to.dto';
import { Allow } from 'class-validator';
import { EmailListField, IntField, LineField, StrField } from 'src/core/validation/field-decorators';

/** `action=decline`. */
export class DeclineDto {
  @StrField() gateway_msg?: string | null;
  @IntField({ min: 0 }) gateway_err_code?: number | null;
  @StrField() gateway_err_detail?: string | null;
}

/** `action=refund`: `amount` defaults to what is left to refund. */
export class RefundDto {
  @Allow() @DocDecimal('default: what is left to refund', 10) amount?: unknown;
}

/** `action=changeAppliedAmounts`. */
@WithAppliedTo()
export class ChangeAppliedDto {
  @Allow()
  @DocRequired({ ...APPLIED_TO_SCHEMA, description: 'replaces every application; [] unapplies' })
  applied_to?: unknown;
}

/** `action=email`: every field overrides the default receipt. */
export class EmailReceiptDto {
  @EmailListField() email?: string;
  @EmailListField() cc?: string;
  @EmailListField() bcc?: string;
  @LineField() subject?: string;
  @StrField(65535) body?: string;
  @StrField(65535) html?: string;
  @LineField() from?: string;
  @IntField() message_id?: number;
}
