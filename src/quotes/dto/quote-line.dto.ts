import { Doc, DocDecimal, docCustomFields } from 'src/core/validation/doc-fields';
import { TiersetInputDto } from 'src/items/dto/tierset-input.dto';

/** One of a quote's `line_items` (read by `parseQuoteLines`). */
@docCustomFields(20)
export class QuoteLineInputDto {
  @Doc({ type: 'integer', description: 'on update: an existing line' }) line_item_id?: number;
  @Doc({ type: 'integer', example: 1, description: 'required on a new line: an existing item' }) item_id?: number;
  @Doc({ type: 'string', maxLength: 255 }) descrip?: string;
  @DocDecimal('deprecated in favour of `tierset`') line_rate?: number | string;
  @DocDecimal('default 1', 1) line_quantity?: number | string;
  @Doc({ type: () => TiersetInputDto, description: "the line's price (default: the item's)" })
  tierset?: TiersetInputDto;
  @Doc({ type: 'integer', minimum: 0, description: 'invoices before the line expires (create only)' })
  expire_recurs?: number;
  @Doc({ type: 'string', description: 'create only' }) subscribe_prorate_from_datetime?: string;
  @Doc({ type: 'string', description: 'create only' }) subscribe_prorate_to_datetime?: string;
}
