import { ApiProperty } from '@nestjs/swagger';

/** One attempt of a delivery and what the receiver said. */
export class WireWebhookAttempt {
  @ApiProperty({ type: 'integer' }) attempt: number;
  @ApiProperty({ type: 'string', nullable: true }) attempt_datetime: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) response_code: number | null;
  @ApiProperty({ type: 'string', nullable: true }) response_body: string | null;
  @ApiProperty({ type: 'string', nullable: true }) error: string | null;
}

/** A delivery on the wire (`webhook_log`), with every attempt. */
export class WireWebhookLog {
  @ApiProperty({ type: 'integer' }) webhook_log_id: number;
  @ApiProperty({ type: 'integer' }) resthook_id: number;
  @ApiProperty({ type: 'string' }) webhook_message_id: string;
  @ApiProperty({ type: 'string' }) context_str: string;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'integer' }] }) context_id: string | number;
  @ApiProperty({ type: 'string' }) event: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'given_up'] }) status:
    'pending' | 'delivered' | 'failed' | 'given_up';
  @ApiProperty({ type: 'number' }) attempts: number;
  @ApiProperty({ type: 'string', nullable: true }) next_attempt_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) last_attempt_datetime: string | null;
  @ApiProperty({ type: 'number', nullable: true }) last_response_code: number | null;
  @ApiProperty({ type: 'string', nullable: true }) last_response_body: string | null;
  @ApiProperty({ type: 'string', nullable: true }) last_error: string | null;
  @ApiProperty({ type: 'string', nullable: true }) delivered_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: () => [WireWebhookAttempt] }) attempt_log: WireWebhookAttempt[];
}
