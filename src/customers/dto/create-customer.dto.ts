import { BodyRules } from 'src/core/validation/body-rules';
import { IntField, StrField } from 'src/core/validation/field-decorators';
import { CUSTOMER_READ_ONLY, CustomerFieldsDto } from './customer-fields.dto';

/** POST /customer: the shared fields plus the create-only ones. */
@BodyRules({ readOnly: CUSTOMER_READ_ONLY, requireData: true })
export class CreateCustomerDto extends CustomerFieldsDto {
  @IntField({ nullable: false }) currency_id?: number;
  @IntField({ nullable: false }) brand_id?: number;
  @StrField() campaign_details?: string | null;
  @StrField(255, false) superuser_username?: string;
}
