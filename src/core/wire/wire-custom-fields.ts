import { ApiProperty } from '@nestjs/swagger';

const TEXT = { type: 'string', nullable: true } as const;

// The custom fields `custom_1..custom_N` of a response class, null when unset; each longer
// list extends the shorter one.
/** `custom_1..3` (items, subscription lines). */
export class WireCustom3 {
  @ApiProperty(TEXT) custom_1: string | null;
  @ApiProperty(TEXT) custom_2: string | null;
  @ApiProperty(TEXT) custom_3: string | null;
}

/** `custom_1..5` (subscriptions, transactions). */
export class WireCustom5 extends WireCustom3 {
  @ApiProperty(TEXT) custom_4: string | null;
  @ApiProperty(TEXT) custom_5: string | null;
}

/** `custom_1..10` (invoice lines). */
export class WireCustom10 extends WireCustom5 {
  @ApiProperty(TEXT) custom_6: string | null;
  @ApiProperty(TEXT) custom_7: string | null;
  @ApiProperty(TEXT) custom_8: string | null;
  @ApiProperty(TEXT) custom_9: string | null;
  @ApiProperty(TEXT) custom_10: string | null;
}

/** `custom_1..20` (customers, contacts, invoices, quotes). */
export class WireCustom20 extends WireCustom10 {
  @ApiProperty(TEXT) custom_11: string | null;
  @ApiProperty(TEXT) custom_12: string | null;
  @ApiProperty(TEXT) custom_13: string | null;
  @ApiProperty(TEXT) custom_14: string | null;
  @ApiProperty(TEXT) custom_15: string | null;
  @ApiProperty(TEXT) custom_16: string | null;
  @ApiProperty(TEXT) custom_17: string | null;
  @ApiProperty(TEXT) custom_18: string | null;
  @ApiProperty(TEXT) custom_19: string | null;
  @ApiProperty(TEXT) custom_20: string | null;
}
