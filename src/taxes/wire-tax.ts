import { ApiProperty } from '@nestjs/swagger';

/** A `/tax` on the wire (its rate in percent). */
export class WireTax {
  @ApiProperty({ type: 'integer' }) tax_id: number;
  @ApiProperty({ type: 'string' }) tax_name: string;
  @ApiProperty({ type: 'number' }) tax_rate: number;
}

/** A `/tax_group` on the wire: the group with the tax it applies. */
export class WireTaxGroup {
  @ApiProperty({ type: 'integer' }) tax_group_id: number;
  @ApiProperty({ type: 'string' }) tax_group_name: string;
  @ApiProperty({ type: 'integer' }) tax_id: number;
  @ApiProperty({ type: 'string' }) tax_name: string;
  @ApiProperty({ type: 'number' }) tax_rate: number;
}
