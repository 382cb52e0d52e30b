import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';

/**
 * Field decorators for write DTOs. Every field is optional unless the service says
 * otherwise; `null` clears a nullable field. Numeric strings are coerced only for
 * numeric fields ("800" for a number is accepted, as the recorded traffic shows).
 */
function compose(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

/** The field in the OpenAPI document (@nestjs/swagger): every write field is optional on the wire. */
function described(schema: Parameters<typeof ApiPropertyOptional>[0]): PropertyDecorator {
  return ApiPropertyOptional(schema);
}

const INT_STRING = /^-?\d{1,10}$/;

/** Absent fields are skipped; `null` passes only for nullable fields (it clears them). */
function optional(nullable: boolean): PropertyDecorator {
  return nullable ? IsOptional() : ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** An integer (references, counts); accepts a numeric string. */
export function IntField(options: { min?: number; nullable?: boolean } = {}): PropertyDecorator {
  const { min = 1, nullable = true } = options;
  return compose(
    described({ type: 'integer', minimum: min, maximum: 2_147_483_647, nullable }),
    optional(nullable),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && INT_STRING.test(value) ? Number(value) : value,
    ),
    IsInt({ message: '$property must be an integer' }),
    Min(min),
    Max(2_147_483_647),
  );
}

/** A boolean; accepts 1/0 and "true"/"false"/"1"/"0". */
export function BoolField(): PropertyDecorator {
  return compose(
    described({ type: 'boolean', description: 'also 1/0, "true"/"false"' }),
    optional(false),
    Transform(({ value }: { value: unknown }) => {
      if (value === 1 || value === '1' || value === 'true') return true;
      if (value === 0 || value === '0' || value === 'false') return false;
      return value;
    }),
    IsBoolean({ message: '$property must be a boolean (true or false)' }),
  );
}

/** A string of at most `max` characters. */
export function StrField(max = 255, nullable = true): PropertyDecorator {
  return compose(
    described({ type: 'string', maxLength: max, nullable }),
    optional(nullable),
    IsString({ message: '$property must be a string' }),
    MaxLength(max),
  );
}

/** A one-line string (a mail subject or sender): a line break could forge mail headers. */
export function LineField(max = 255): PropertyDecorator {
  return compose(
    described({ type: 'string', maxLength: max }),
    optional(false),
    IsString({ message: '$property must be a string' }),
    MaxLength(max),
    Matches(/^[^\r\n]*$/, { message: '$property must not contain line breaks' }),
  );
}

/** E-mail addresses separated by commas (as the invoice `email` action reads them). */
export function EmailListField(): PropertyDecorator {
  return compose(
    described({ type: 'string', maxLength: 1000, description: 'e-mail addresses separated by commas' }),
    optional(false),
    IsString({ message: '$property must be a string' }),
    MaxLength(1000),
    Matches(/^\s*[^\s@,]+@[^\s@,]+\s*(,\s*([^\s@,]+@[^\s@,]+)?\s*)*$/, {
      message: '$property must be e-mail addresses separated by commas',
    }),
  );
}

/** One of a fixed set of strings. */
export function EnumField(values: readonly string[]): PropertyDecorator {
  return compose(
    described({ type: 'string', enum: [...values] }),
    optional(false),
    IsIn(values, { message: `$property must be one of: ${values.join(', ')}` }),
  );
}

/** A `custom_N` field: type mixed, stored as text (numbers and booleans kept as their text). */
export function MixedField(): PropertyDecorator {
  return compose(
    described({ type: 'string', maxLength: 255, nullable: true, description: 'numbers and booleans are kept as text' }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'number' || typeof value === 'boolean' ? String(value) : value,
    ),
    IsString({ message: '$property must be a string, number or boolean' }),
    MaxLength(255),
  );
}

/** An array of short strings (tags). */
export function StringListField(): PropertyDecorator {
  return compose(
    described({ type: 'array', items: { type: 'string', maxLength: 64 } }),
    IsOptional(),
    IsArray({ message: '$property must be an array of strings' }),
    IsString({ each: true, message: '$property must be an array of strings' }),
    MaxLength(64, { each: true }),
  );
}

/** A date or datetime in one of the accepted input forms; the service converts it. */
export function DateInputField(): PropertyDecorator {
  return compose(
    described({ type: 'string', example: '2026-11-21', description: 'YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or ISO 8601' }),
    IsOptional(),
    IsString({ message: '$property must be a date string' }),
    Matches(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}:\d{2}.*)?$/, {
      message: '$property must be YYYY-MM-DD, YYYY-MM-DD HH:MM:SS or an ISO 8601 datetime with offset',
    }),
    // The years of INPUT_YEARS (src/core/time/datetime-input.ts); offsets are checked there.
    ValidateBy({
      name: 'inputYears',
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' || !/^\d{4}-/.test(value) || /^(19\d\d|2\d\d\d)-/.test(value),
        defaultMessage: () => '$property must be a date in the years 1900 to 2999',
      },
    }),
  );
}

/** Required even though the class default is optional: validate when present, service checks presence. */
export const Present = (): PropertyDecorator => ValidateIf(() => true);

/** Adds `custom_1..custom_<count>` mixed fields to a DTO class. */
export function customFieldsDto(count: number): ClassDecorator {
  return (target) => {
    for (let i = 1; i <= count; i++) MixedField()(target.prototype as object, `custom_${i}`);
  };
}
