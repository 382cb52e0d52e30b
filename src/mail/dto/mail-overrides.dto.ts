import { ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The body of an action that mails (`email` on invoices, quotes and transactions, `welcome`
 * on subscriptions), as the OpenAPI document describes it; `mailOverrides` reads it, with
 * answers of its own (SPEC "Email receipt": each field overrides the template's).
 */
export class MailOverridesDto {
  @ApiPropertyOptional({ type: 'string', example: 'billing@example.com', description: 'addresses, comma separated' })
  email?: string;
  @ApiPropertyOptional({ type: 'string', description: 'addresses, comma separated' }) cc?: string;
  @ApiPropertyOptional({ type: 'string', description: 'addresses, comma separated' }) bcc?: string;
  @ApiPropertyOptional({ type: 'string', maxLength: 998 }) subject?: string;
  @ApiPropertyOptional({ type: 'string', description: 'plain text' }) body?: string;
  @ApiPropertyOptional({ type: 'string' }) html?: string;
  @ApiPropertyOptional({ type: 'string', maxLength: 255 }) from?: string;
  @ApiPropertyOptional({
    type: 'integer',
    example: 19,
    description: 'an e-mail template (accepted; the default is used)',
  })
  message_id?: number;
}
