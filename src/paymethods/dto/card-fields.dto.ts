import { BodyRules } from 'src/core/validation/body-rules';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { IntField, StrField } from 'src/core/validation/field-decorators';
import { digitsText } from './digits-text';

// On each number field IsString sits last, so it is checked (and reported) first: `null` is a
// wrong type, not a string that is too long.

/** A card as sent on POST /creditcard and inside a payment's `paymethods`. */
export class CardFieldsDto {
  @ValidateIf((_o: object, v: unknown) => v !== undefined)
  @digitsText
  @MaxLength(32)
  @IsString({ message: '$property must be a string of digits' })
  number?: string;

  @IntField({ nullable: false }) expdate_year?: number;
  @IntField({ nullable: false }) expdate_month?: number;
  @StrField(7, false) expdate?: string;

  @ValidateIf((_o: object, v: unknown) => v !== undefined)
  @digitsText
  @MaxLength(8)
  @IsString({ message: '$property must be a string of digits' })
  cvv?: string;

  @StrField() name?: string | null;
  @StrField() address?: string | null;
  @StrField(128) city?: string | null;
  @StrField(128) state?: string | null;
  @StrField(32) postcode?: string | null;
  @StrField(128) country?: string | null;
}

/** Fields a card read returns but a write never takes. */
export const CARD_READ_ONLY = [
  'creditcard_id',
  'type',
  'token',
  'write_datetime',
  'write_ipaddr',
  'mask_number',
  'expdate_formatted',
  'type_name',
] as const;

/** POST /creditcard. */
@BodyRules({
  readOnly: CARD_READ_ONLY,
  requireData: true,
  extraAllowed: ['customer_token', 'customer_external_key'],
})
export class CreateCreditCardDto extends CardFieldsDto {
  @IntField() customer_id?: number;
  @StrField() external_key?: string | null;
}
