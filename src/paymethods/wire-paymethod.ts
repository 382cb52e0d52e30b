import { ApiProperty } from '@nestjs/swagger';

/** A `/creditcard` on the wire: never the full number or the CVV. */
export class WireCreditCard {
  @ApiProperty({ type: 'integer' }) creditcard_id: number;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string' }) type: string;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string' }) expdate: string;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_ipaddr: string | null;
  @ApiProperty({ type: 'string' }) mask_number: string;
  @ApiProperty({ type: 'string' }) name: string;
  @ApiProperty({ type: 'string' }) expdate_month: string;
  @ApiProperty({ type: 'string' }) expdate_year: string;
  @ApiProperty({ type: 'string' }) expdate_formatted: string;
  @ApiProperty({ type: 'string' }) type_name: string;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: 'string', nullable: true }) address: string | null;
  @ApiProperty({ type: 'string', nullable: true }) city: string | null;
  @ApiProperty({ type: 'string', nullable: true }) state: string | null;
  @ApiProperty({ type: 'string', nullable: true }) postcode: string | null;
  @ApiProperty({ type: 'string', nullable: true }) country: string | null;
  @ApiProperty({ type: 'string' }) url_self: string;
}

/** An `/ach` bank account on the wire: never the full account number. */
export class WireBankAccount {
  @ApiProperty({ type: 'integer' }) ach_id: number;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string' }) type: string;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_ipaddr: string | null;
  @ApiProperty({ type: 'string' }) mask_number: string;
  @ApiProperty({ type: 'string' }) routing: string;
  @ApiProperty({ type: 'string' }) name: string;
  @ApiProperty({ type: 'string' }) bank: string;
  @ApiProperty({ type: 'string' }) type_name: string;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: 'string' }) url_self: string;
}

/** A `/tokenized` payment method on the wire (a card or account kept by the gateway). */
export class WireTokenized {
  @ApiProperty({ type: 'integer' }) tokenized_id: number;
  @ApiProperty({ type: 'string', nullable: true }) type: string | null;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'integer' }) customer_id: number;
  @ApiProperty({ type: 'string', nullable: true }) name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) paymethod_hint: string | null;
  @ApiProperty({ type: 'string', nullable: true }) type_hint: string | null;
  @ApiProperty({ type: 'string', nullable: true }) expdate: string | null;
  @ApiProperty({ type: 'string', nullable: true }) mask_number: string | null;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
}
