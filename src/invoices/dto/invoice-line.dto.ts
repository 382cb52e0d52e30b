import { PAYCYCLES } from 'src/billing/paycycles';
import { Doc, DocDecimal, docCustomFields } from 'src/core/validation/doc-fields';

/** One of an invoice's `line_items` (read by `parseLineItems`). */
@docCustomFields(10)
export class InvoiceLineInputDto {
  @Doc({ type: 'integer', description: 'on update: an existing line, kept as it is when sent alone' })
  line_item_id?: number;
  @Doc({ type: 'integer', example: 1, description: 'required on a new line: an existing item' }) item_id?: number;
  @Doc({ type: 'string', enum: [...PAYCYCLES] }) paycycle?: string;
  @Doc({ type: 'string', maxLength: 255 }) descrip?: string;
  @DocDecimal("the unit price (default: the item's price in the invoice currency)", 49) line_rate?: number | string;
  @DocDecimal('default 1', 2) line_quantity?: number | string;
}
