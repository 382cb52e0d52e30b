import { ApiProperty } from '@nestjs/swagger';

/** The test clock's moment on the wire (`/_clock`). */
export class WireClock {
  @ApiProperty({ type: 'string', nullable: true }) datetime: string | null;
  @ApiProperty({ type: 'string', example: '2026-11-27' }) date: string;
  @ApiProperty({ type: 'string', example: 'America/Chicago' }) timezone: string;
}
