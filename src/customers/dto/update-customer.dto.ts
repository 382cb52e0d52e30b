import { BodyRules } from 'src/core/validation/body-rules';
import { IntField } from 'src/core/validation/field-decorators';
import { CUSTOMER_READ_ONLY, CustomerFieldsDto } from './customer-fields.dto';

/** PUT /customer/<id>: the shared fields plus `superuser_id` (choose the main contact). */
@BodyRules({
  readOnly: [...CUSTOMER_READ_ONLY, 'currency_id', 'brand_id', 'campaign_details', 'superuser_username'],
})
export class UpdateCustomerDto extends CustomerFieldsDto {
  @IntField({ nullable: false }) superuser_id?: number;
}
