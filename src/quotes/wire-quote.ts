import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { WireCustom20 } from 'src/core/wire/wire-custom-fields';
import { WireTierset } from 'src/items/wire-item';
import { WireBilledDocument, WirePricedLine } from 'src/invoices/wire-invoice';

/**
 * A quote (SPEC "Quote") on the wire, as QuotePresenter writes it: money as numbers, dates and datetimes as
 * strings in the account zone, null where unset. It is the presenter's return type (a
 * field added there is a type error until declared here) and, through `@ApiProperty`, the
 * `response` of its envelope in the OpenAPI document.
 */
export class WireQuote extends IntersectionType(WireBilledDocument, WireCustom20) {
  @ApiProperty({ type: 'string', nullable: true }) won_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) lost_datetime: string | null;
  @ApiProperty({ type: 'number' }) setup: number;
  @ApiProperty({ type: 'number' }) upfront: number;
  @ApiProperty({ type: 'integer', enum: [1, 2, 3] }) quote_status_id: 1 | 2 | 3;
  @ApiProperty({ enum: ['New', 'Accepted', 'Rejected'] }) quote_status_name: 'New' | 'Accepted' | 'Rejected';
  @ApiProperty({ type: 'string' }) quote_status_str: string;
  @ApiProperty({ enum: ['o', 'c'] }) quote_status_state: 'o' | 'c';
  @ApiProperty({ type: 'integer', nullable: true }) invoice_id: number | null;
  @ApiProperty({ type: 'string' }) url_acceptlink: string;
  @ApiProperty({ type: 'string' }) url_rejectlink: string;
  @ApiProperty({ type: 'integer' }) quote_id: number;
  @ApiProperty({ type: 'string' }) nickname: string;
  @ApiProperty({ type: 'string', nullable: true }) validuntil_date: string | null;
  @ApiProperty({ type: 'string', nullable: true }) holduntil_datetime_str: string | null;
  @ApiProperty({ type: 'string', nullable: true }) url_acceptredirect: string | null;
  @ApiProperty({ type: 'string', nullable: true }) url_rejectredirect: string | null;
}

/** One line of a quote, with its tierset. */
export class WireQuoteLine extends IntersectionType(WirePricedLine, WireCustom20) {
  @ApiProperty({ type: () => WireTierset, nullable: true }) tierset: WireTierset | null;
  @ApiProperty({ type: 'integer' }) quote_id: number;
  @ApiProperty({ type: 'number', nullable: true }) line_rate: number | null;
  @ApiProperty({ type: 'number', nullable: true }) expire_recurs: number | null;
  @ApiProperty({ type: 'string', nullable: true }) subscribe_prorate_from_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) subscribe_prorate_to_datetime: string | null;
}

/** One sending of a quote by its `email` action. */
export class WireQuoteSent {
  @ApiProperty({ type: 'integer' }) mail_message_id: number;
  @ApiProperty({ enum: ['email'] }) method: 'email';
  @ApiProperty({ type: 'string' }) email: string;
  @ApiProperty({ type: 'string' }) subject: string;
  @ApiProperty({ type: 'string' }) status: string;
  @ApiProperty({ type: 'string', nullable: true }) sent_datetime: string | null;
}

/** A single quote read: the overview with its lines and sendings. */
export class WireFullQuote extends WireQuote {
  @ApiProperty({ type: () => [WireQuoteLine] }) line_items: WireQuoteLine[];
  @ApiProperty({ type: () => [WireQuoteSent] }) sent: WireQuoteSent[];
}
