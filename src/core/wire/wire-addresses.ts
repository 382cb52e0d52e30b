import { ApiProperty } from '@nestjs/swagger';

const TEXT = { type: 'string', nullable: true } as const;

/**
 * The bill and ship address fields an object shows on the wire (customer, invoice, quote,
 * subscription), null where unset: the part of their response classes they share.
 */
export class WireAddresses {
  @ApiProperty(TEXT) bill_addr1: string | null;
  @ApiProperty(TEXT) bill_addr2: string | null;
  @ApiProperty(TEXT) bill_addr3: string | null;
  @ApiProperty(TEXT) bill_city: string | null;
  @ApiProperty(TEXT) bill_state: string | null;
  @ApiProperty(TEXT) bill_postcode: string | null;
  @ApiProperty(TEXT) bill_country: string | null;
  @ApiProperty(TEXT) ship_addr1: string | null;
  @ApiProperty(TEXT) ship_addr2: string | null;
  @ApiProperty(TEXT) ship_addr3: string | null;
  @ApiProperty(TEXT) ship_city: string | null;
  @ApiProperty(TEXT) ship_state: string | null;
  @ApiProperty(TEXT) ship_postcode: string | null;
  @ApiProperty(TEXT) ship_country: string | null;
}
