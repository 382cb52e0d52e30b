import { ApiProperty } from '@nestjs/swagger';

/** A `_resthook` on the wire: never its secret (shown once, at creation). */
export class WireWebhook {
  @ApiProperty({ type: 'integer' }) resthook_id: number;
  @ApiProperty({ type: 'string' }) target_url: string;
  @ApiProperty({ type: 'string' }) event: string;
  @ApiProperty({ type: 'string', nullable: true }) nickname: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string' }) url_self: string;
}
