import { IntField, StrField } from 'src/core/validation/field-decorators';
import { CustomerFieldsDto } from './customer-fields.dto';

/** POST /customer: the shared fields plus the create-only ones. */
export class CreateCustomerDto extends CustomerFieldsDto {
  @IntField({ nullable: false }) currency_id?: number;
  @IntField({ nullable: false }) brand_id?: number;
  @StrField() campaign_details?: string | null;
  @StrField(255, false) superuser_username?: string;
}
