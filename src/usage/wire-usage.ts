import { ApiProperty } from '@nestjs/swagger';

/** A usage record on the wire (`GET /usage/<id>`). */
export class WireUsage {
  @ApiProperty({ type: 'integer' }) usage_id: number;
  @ApiProperty({ type: 'integer' }) line_item_id: number;
  @ApiProperty({ type: 'integer' }) package_id: number;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: 'number' }) usage_value: number;
  @ApiProperty({ type: 'string', example: 'max' }) type: string;
  @ApiProperty({ type: [String] }) option: string[];
  @ApiProperty({ type: 'string', nullable: true }) from: string | null;
  @ApiProperty({ type: 'string', nullable: true }) to: string | null;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
}
