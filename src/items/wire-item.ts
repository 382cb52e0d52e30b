import { ApiProperty } from '@nestjs/swagger';
import { WireCustom3 } from 'src/core/wire/wire-custom-fields';

/** A tier of a tierset on the wire. */
export class WireTier {
  @ApiProperty({ type: 'integer' }) tier_id: number;
  @ApiProperty({ type: 'number', nullable: true }) unit_from: number | null;
  @ApiProperty({ type: 'number', nullable: true }) unit_to: number | null;
  @ApiProperty({ type: 'number', nullable: true }) amount: number | null;
  @ApiProperty({ type: 'string' }) amount_formatted: string;
}

/** A tierset on the wire (TiersetPresenter), as an item, a subscription line or a quote line carries it. */
export class WireTierset {
  @ApiProperty({ type: 'integer' }) tierset_id: number;
  @ApiProperty({ type: 'integer' }) currency_id: number;
  @ApiProperty({ type: 'number', nullable: true }) setup: number | null;
  @ApiProperty({ type: 'number', nullable: true }) base: number | null;
  @ApiProperty({ type: 'number', nullable: true }) minimum: number | null;
  @ApiProperty({ type: 'string' })
  /** A string with six decimals (`"0.000000"`), as the recorded traffic has it. */
  percent: string;
  @ApiProperty({ type: 'string' }) paycycle: string;
  @ApiProperty({ type: 'string' }) pricemodel: string;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) mod_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) currency_symbol: string | null;
  @ApiProperty({ type: 'string', nullable: true }) currency_iso4217: string | null;
  @ApiProperty({ type: 'string' }) setup_formatted: string;
  @ApiProperty({ type: 'string' }) base_formatted: string;
  @ApiProperty({ type: 'string' }) minimum_formatted: string;
  @ApiProperty({ type: 'string' }) percent_formatted: string;
  @ApiProperty({ type: 'string', nullable: true }) pricemodel_desc: string | null;
  @ApiProperty({ type: () => [WireTier] }) tiers: WireTier[];
}

/** An item's `service_data`. */
export class WireServiceData {
  @ApiProperty({ type: 'integer' }) trial_days: number;
  @ApiProperty({ type: 'integer' }) trial_units: number;
  @ApiProperty({ type: 'boolean' }) is_usage: boolean;
}

/** An item on the wire (DESIGN §6 "Items and pricing", ItemPresenter), the same in lists and single reads. */
export class WireItem extends WireCustom3 {
  @ApiProperty({ type: 'integer' }) item_id: number;
  @ApiProperty({ type: 'string' }) item_type: string;
  @ApiProperty({ type: 'integer', nullable: true }) tierset_id: number | null;
  @ApiProperty({ type: 'string' }) name: string;
  @ApiProperty({ type: 'string', nullable: true }) description: string | null;
  @ApiProperty({ type: 'string', nullable: true }) units: string | null;
  @ApiProperty({ type: 'string', nullable: true }) accounting_sku: string | null;
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string' }) token: string;
  @ApiProperty({ type: 'string', nullable: true }) write_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) mod_datetime: string | null;
  @ApiProperty({ type: 'string' }) units_plural: string;
  @ApiProperty({ type: 'boolean' }) enabled: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) tax_group_id: number | null;
  @ApiProperty({ type: 'number', nullable: true }) expire_recurs: number | null;
  @ApiProperty({ type: 'number', nullable: true }) trial_recurs: number | null;
  @ApiProperty({ type: () => WireServiceData }) service_data: WireServiceData;
  @ApiProperty({ type: 'string' }) url_self: string;
  @ApiProperty({ type: () => [WireTierset] }) tiersets: WireTierset[];
  @ApiProperty({ type: [Object], example: [], description: 'always empty' }) categories: never[];
}

/** The fields every line of an item shows alike (invoice, quote and subscription lines). */
export class WireItemLine {
  @ApiProperty({ type: 'integer' }) line_item_id: number;
  @ApiProperty({ type: 'integer' }) item_id: number;
  @ApiProperty({ type: 'integer', nullable: true }) tierset_id: number | null;
  @ApiProperty({ type: 'string', nullable: true }) descrip: string | null;
  @ApiProperty({ type: 'number' }) line_quantity: number;
  @ApiProperty({ type: 'string', nullable: true }) item_name: string | null;
  @ApiProperty({ type: 'string', nullable: true }) item_external_key: string | null;
  @ApiProperty({ type: 'string', nullable: true }) item_token: string | null;
  @ApiProperty({ type: 'string', nullable: true }) item_accounting_sku: string | null;
}
