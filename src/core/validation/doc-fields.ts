import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * OpenAPI descriptions of nested write bodies (`line_items`, `tiersets`, `applied_to`, ...):
 * their own parsers check them field by field (400s naming `line_items[0].item_id`), so
 * these decorators describe and never validate.
 */
type Schema = Parameters<typeof ApiPropertyOptional>[0];

/** Where @nestjs/swagger keeps a property's description (its `DECORATORS.API_MODEL_PROPERTIES`, not exported). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** What a property is already described as (type, limits), to mark it required or name an alias of it. */
export function describedAs(prototype: object, field: string): object {
  return (Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, field) ?? { type: 'string' }) as object;
}

/** A described field, optional on the wire. */
export const Doc = (schema: Schema): PropertyDecorator => ApiPropertyOptional(schema);

/** A described field the request must carry (listed in the schema's `required`). */
export const DocRequired = (schema: Schema): PropertyDecorator => ApiProperty({ ...schema, required: true } as Schema);

/** A money or quantity figure: a JSON number or a numeric string, exact to the column's decimals. */
export const DocDecimal = (description?: string, example?: number): PropertyDecorator =>
  Doc({ oneOf: [{ type: 'number' }, { type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }], description, example });

/** Adds described `custom_1..custom_<count>` fields to a nested body's description. */
export function docCustomFields(count: number): ClassDecorator {
  return (target) => {
    for (let i = 1; i <= count; i++) {
      Doc({ type: 'string', nullable: true, maxLength: 255 })(target.prototype as object, `custom_${i}`);
    }
  };
}

/**
 * Marks fields of a body as required in its OpenAPI schema where the service, not the DTO,
 * refuses their absence ("A required parameter was missing: ..."): `@DocRequire('name')`.
 * The field keeps the description its own decorator gave it.
 */
export function DocRequire(...fields: string[]): ClassDecorator {
  return (target) => {
    const prototype = target.prototype as object;
    for (const field of fields) {
      ApiProperty({ ...describedAs(prototype, field), required: true })(prototype, field);
    }
  };
}
