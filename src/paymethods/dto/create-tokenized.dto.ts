import { BodyRules } from 'src/core/validation/body-rules';
import { EnumField, IntField, StrField } from 'src/core/validation/field-decorators';

/** POST /tokenized: a method kept in an outside vault, known here by its token. */
@BodyRules({
  readOnly: ['tokenized_id'],
  requireData: true,
  extraAllowed: ['customer_token', 'customer_external_key'],
})
export class CreateTokenizedDto {
  @IntField() customer_id?: number;
  @StrField(255, false) token?: string;
  @StrField(32) type?: string | null;
  @StrField() name?: string | null;
  @EnumField(['crd', 'ach']) paymethod_hint?: string;
  @StrField(8) type_hint?: string | null;
  @StrField(10) expdate?: string | null;
}
