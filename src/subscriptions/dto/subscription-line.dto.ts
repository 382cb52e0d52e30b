import { Doc, DocDecimal, DocRequired, docCustomFields } from 'src/core/validation/doc-fields';
import { TiersetInputDto } from 'src/items/dto/tierset-input.dto';

/** One of a subscription's `line_items` on create (read by `parseSubscriptionLines`). */
@docCustomFields(3)
export class SubscriptionLineInputDto {
  @DocRequired({ type: 'integer', example: 1, description: 'an existing item' }) item_id!: number;
  @Doc({ type: 'string', maxLength: 255 }) descrip?: string;
  @DocDecimal('default 1', 1) line_quantity?: number | string;
  @Doc({ type: () => TiersetInputDto, description: "the line's price (default: the item's)" })
  tierset?: TiersetInputDto;
  @Doc({ type: 'integer', minimum: 0 }) trial_days?: number;
  @Doc({ type: 'integer', minimum: 0, description: 'invoices before the line expires' }) expire_recurs?: number;
  @Doc({ type: 'string', description: 'when the line starts (default: now)' }) subscribe_datetime?: string;
  @Doc({ type: 'string', nullable: true }) external_key?: string | null;
  @Doc({ type: 'string' }) nickname?: string;
}

/** An entry of action upgrade's `line_items`: a new line, or `line_item_id` to replace or (`cancel`) remove. */
export class SubscriptionUpgradeLineDto extends SubscriptionLineInputDto {
  @Doc({ type: 'integer', description: 'the line this entry replaces or removes' }) line_item_id?: number;
  @Doc({ type: 'boolean', description: 'remove `line_item_id`' }) cancel?: boolean;
  @Doc({ type: 'boolean' }) subscribe_prorate?: boolean;
  @Doc({ type: 'boolean' }) cancel_prorate?: boolean;
}
