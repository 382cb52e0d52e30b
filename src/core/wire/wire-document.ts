import { ApiProperty } from '@nestjs/swagger';
import { WireAddresses } from './wire-addresses';

/**
 * The fields invoices, quotes and subscriptions show alike (with the bill and ship
 * addresses): the part of their response classes they share.
 */
export class WireDocument extends WireAddresses {
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) mod_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) currency_symbol: string | null;
  @ApiProperty({ type: 'string', nullable: true }) currency_iso4217: string | null;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: 'string', nullable: true }) terms_name: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) terms_days: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) class_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) admin_id: number | null;
  @ApiProperty({ type: 'integer' }) brand_id: number;
  @ApiProperty({ type: 'string' }) url_self: string;
  @ApiProperty({ type: 'integer' }) terms_id: number;
  @ApiProperty({ type: 'integer' }) currency_id: number;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string' }) paycycle: string;
  @ApiProperty({ type: 'string', nullable: true }) bill_notes: string | null;
  @ApiProperty({ type: 'string', nullable: true }) ship_notes: string | null;
  @ApiProperty({ type: 'string', nullable: true }) paycycle_name: string | null;
}
