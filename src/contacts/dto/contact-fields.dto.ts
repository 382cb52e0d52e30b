import { MinLength } from 'class-validator';
import { BodyRules } from 'src/core/validation/body-rules';
import { customFieldsDto, IntField, StrField } from 'src/core/validation/field-decorators';
import { PasswordField } from './password-field';

/** Contact fields writable on create and update (SPEC "Contact / user"). */
@customFieldsDto(20)
export class ContactFieldsDto {
  @StrField() external_key?: string | null;
  @StrField(255, false) @MinLength(1, { message: '$property must not be empty' }) username?: string;
  @PasswordField() password?: string;
  @StrField() name?: string | null;
  @StrField(128) first_name?: string | null;
  @StrField(128) middle_name_glob?: string | null;
  @StrField(128) last_name?: string | null;
  @StrField(32) name_suffix?: string | null;
  @StrField(128) title?: string | null;
  @StrField() email?: string | null;
  @StrField(64) phone?: string | null;
  @StrField(64) mobile?: string | null;
  @IntField({ nullable: false }) user_type_id?: number;
}

export const CONTACT_READ_ONLY = [
  'user_id',
  'token',
  'display_as',
  'user_type_name',
  'write_datetime',
  'mod_datetime',
  'url_self',
  'customers',
] as const;

/** POST /user: the owning customer is given on create only. */
@BodyRules({
  readOnly: CONTACT_READ_ONLY,
  requireData: true,
  extraAllowed: ['customer_token', 'customer_external_key'],
})
export class CreateContactDto extends ContactFieldsDto {
  @IntField({ nullable: false }) customer_id?: number;
}

/** PUT /user/<id>: the owning customer is given on create only. */
@BodyRules({ readOnly: [...CONTACT_READ_ONLY, 'customer_id', 'customer_token', 'customer_external_key'] })
export class UpdateContactDto extends ContactFieldsDto {}
