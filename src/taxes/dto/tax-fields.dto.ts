import { ApiProperty } from '@nestjs/swagger';
import { Allow, ValidateBy } from 'class-validator';
import { BodyRules } from 'src/core/validation/body-rules';

/** A tax's or group's name: checked even when null (both are required), trimmed by the service. */
function TaxNameField(): PropertyDecorator {
  return ValidateBy({
    name: 'taxName',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.trim() !== '' && value.length <= 128,
      defaultMessage: () => 'must be a non-empty string of at most 128 characters',
    },
  });
}

/** POST /tax: a name and a rate in percent, each also under its short name (`name`, `rate`). */
@BodyRules({ required: ['tax_name', 'tax_rate'], aliases: { tax_name: ['name'], tax_rate: ['rate'] } })
export class CreateTaxDto {
  @ApiProperty({ type: 'string', maxLength: 128, description: 'also as `name`' })
  @TaxNameField()
  tax_name!: string;

  /** A number or numeric string, read into a decimal by the service as amounts are. */
  @ApiProperty({ type: 'number', minimum: 0, maximum: 100, description: 'a percentage; also as `rate`' })
  @Allow()
  tax_rate!: unknown;
}

/** POST /tax_group: a name (also `name`) and the tax the group applies. */
@BodyRules({ required: ['tax_group_name', 'tax_id'], aliases: { tax_group_name: ['name'] } })
export class CreateTaxGroupDto {
  @ApiProperty({ type: 'string', maxLength: 128, description: 'also as `name`' })
  @TaxNameField()
  tax_group_name!: string;

  /** Read by the service: anything that reads as a positive whole number, "3" included. */
  @ApiProperty({ type: 'integer', minimum: 1 })
  @Allow()
  tax_id!: unknown;
}
