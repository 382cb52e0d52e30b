import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';

/** A portal password, the same rule wherever one is written (create, update, action password). */
export function PasswordField(): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ type: 'string', minLength: 8, maxLength: 128, format: 'password' })(target, key);
    ValidateIf((_object: object, value: unknown) => value !== undefined)(target, key);
    IsString({ message: '$property must be a string' })(target, key);
    MinLength(8, { message: '$property must be at least 8 characters long' })(target, key);
    MaxLength(128, { message: '$property must be at most 128 characters long' })(target, key);
  };
}
