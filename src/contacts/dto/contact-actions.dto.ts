import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PasswordField } from './password-field';

/** `POST /user/<id>?action=password`: with a password, set it; without, mail a reset link. */
export class SetPasswordDto {
  @PasswordField() password?: string;
}

export const LOGIN_DESTINATIONS = [
  'subscriptions',
  'invoices',
  'payments',
  'info',
  'paymethods',
  'paymethods-creditcard',
  'paymethods-ach',
  'password',
] as const;

/** `POST /user/<id>?action=getLoginURL`. */
export class LoginUrlDto {
  @ApiPropertyOptional({ type: 'string', enum: [...LOGIN_DESTINATIONS], description: 'default: the portal home page' })
  @IsOptional()
  @IsIn(LOGIN_DESTINATIONS, { message: `$property must be one of: ${LOGIN_DESTINATIONS.join(', ')}` })
  destination?: (typeof LOGIN_DESTINATIONS)[number];
}
