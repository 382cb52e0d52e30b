import { IntField } from 'src/core/validation/field-decorators';
import { CustomerFieldsDto } from './customer-fields.dto';

/** PUT /customer/<id>: the shared fields plus `superuser_id` (choose the main contact). */
export class UpdateCustomerDto extends CustomerFieldsDto {
  @IntField({ nullable: false }) superuser_id?: number;
}
