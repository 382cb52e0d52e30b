import { BodyRules } from 'src/core/validation/body-rules';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { EnumField, IntField, StrField } from 'src/core/validation/field-decorators';
import { digitsText } from './digits-text';

// In each field IsString sits last so a wrong type is reported as such, not as too long.
export const BANK_ACCOUNT_TYPES = ['chec', 'savi', 'busi'] as const;

/** A bank account as sent on POST /ach and inside a payment's `paymethods`. */
export class BankAccountFieldsDto {
  @EnumField(BANK_ACCOUNT_TYPES) type?: string;

  @ValidateIf((_o: object, v: unknown) => v !== undefined)
  @digitsText
  @MaxLength(32)
  @IsString({ message: '$property must be a string of digits' })
  number?: string;

  @ValidateIf((_o: object, v: unknown) => v !== undefined)
  @digitsText
  @MaxLength(16)
  @IsString({ message: '$property must be a string of 9 digits' })
  routing?: string;

  @StrField() name?: string | null;
  @StrField() bank?: string | null;
}

export const BANK_ACCOUNT_READ_ONLY = [
  'ach_id',
  'token',
  'write_datetime',
  'write_ipaddr',
  'mask_number',
  'type_name',
] as const;

/** POST /ach. */
@BodyRules({
  readOnly: BANK_ACCOUNT_READ_ONLY,
  requireData: true,
  extraAllowed: ['customer_token', 'customer_external_key'],
})
export class CreateBankAccountDto extends BankAccountFieldsDto {
  @IntField() customer_id?: number;
  @StrField() external_key?: string | null;
}
