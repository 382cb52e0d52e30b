import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { WireCustom3, WireCustom5 } from 'src/core/wire/wire-custom-fields';
import { WireTierset } from 'src/items/wire-item';
import { WireDocument } from 'src/core/wire/wire-document';
import { WireItemLine } from 'src/items/wire-item';

/**
 * A subscription (SPEC "Subscription", `/package`) on the wire, as SubscriptionPresenter writes it: money as numbers, dates and datetimes as
 * strings in the account zone, null where unset. It is the presenter's return type (a
 * field added there is a type error until declared here) and, through `@ApiProperty`, the
 * `response` of its envelope in the OpenAPI document.
 */
export class WireSubscription extends IntersectionType(WireDocument, WireCustom5) {
  @ApiProperty({ type: 'string', nullable: true }) suspendfrom_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) suspendto_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) cancel_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) holduntil_datetime: string | null;
  @ApiProperty({ type: 'number' }) amount_collected: number;
  @ApiProperty({ type: 'number' }) amount_invoiced: number;
  @ApiProperty({ type: 'number' }) amount_due: number;
  @ApiProperty({ type: 'string' }) next_invoice_datetime: string;
  @ApiProperty({ type: 'integer' }) package_id: number;
  @ApiProperty({ type: 'integer', enum: [1, 2, 3, 4, 5, 6, 7] }) package_status_id: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  @ApiProperty({
    enum: ['Trial', 'Current', 'Over Due', 'Suspended', 'Canceled manually', 'Canceled for non-payment', 'Expired'],
  })
  package_status_name:
    'Trial' | 'Current' | 'Over Due' | 'Suspended' | 'Canceled manually' | 'Canceled for non-payment' | 'Expired';
  @ApiProperty({
    enum: [
      'active-trial',
      'active-current',
      'active-overdue',
      'suspended-suspended',
      'canceled-manual',
      'canceled-nonpayment',
      'expired-expired',
    ],
  })
  package_status_str:
    | 'active-trial'
    | 'active-current'
    | 'active-overdue'
    | 'suspended-suspended'
    | 'canceled-manual'
    | 'canceled-nonpayment'
    | 'expired-expired';
  @ApiProperty({ enum: ['c', 'a', 's', 'e'] }) package_status_state: 'c' | 'a' | 's' | 'e';
  @ApiProperty({ type: 'string', nullable: true }) start_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) cancel_reason: string | null;
  @ApiProperty({ type: 'string', nullable: true }) class_name: string | null;
  @ApiProperty({ type: 'boolean' }) is_overdue: boolean;
  @ApiProperty({ type: 'integer' }) days_overdue: number;
  @ApiProperty({ type: 'string' }) paymethod_name: string;
  @ApiProperty({ type: 'string' }) nickname: string;
  @ApiProperty({ type: 'string' }) paymethod: string;
  @ApiProperty({ type: 'integer', nullable: true }) creditcard_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) ach_id: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) tokenized_id: number | null;
}

/** One line of a subscription, with its tierset. */
export class WireSubscriptionLine extends IntersectionType(WireItemLine, WireCustom3) {
  @ApiProperty({ type: 'string', nullable: true }) external_key: string | null;
  @ApiProperty({ type: 'string' }) nickname: string;
  @ApiProperty({ type: 'integer' }) trial_days: number;
  @ApiProperty({ type: 'number' }) trial_units: number;
  @ApiProperty({ type: 'string', nullable: true }) subscribe_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) cancel_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) expire_datetime: string | null;
  @ApiProperty({ type: 'number', nullable: true }) expire_recurs: number | null;
  @ApiProperty({ type: 'string' }) license: string;
  @ApiProperty({ type: 'string', nullable: true }) item_units: string | null;
  @ApiProperty({ type: () => WireTierset, nullable: true }) tierset: WireTierset | null;
  @ApiProperty({ type: 'integer' }) package_id: number;
  @ApiProperty({ type: 'integer', nullable: true }) admin_id: number | null;
  @ApiProperty({ type: 'number', nullable: true }) trial_recurs: number | null;
  @ApiProperty({ type: 'string', nullable: true }) subscribe_prorate_from_datetime: string | null;
  @ApiProperty({ type: 'string', nullable: true }) subscribe_prorate_to_datetime: string | null;
  @ApiProperty({ enum: ['service', 'product', 'discount'], nullable: true }) item_type:
    'service' | 'product' | 'discount' | null;
  @ApiProperty({ type: 'boolean' }) item_is_usage: boolean;
}

/** A single subscription read: the overview with its lines. */
export class WireFullSubscription extends WireSubscription {
  @ApiProperty({ type: () => [WireSubscriptionLine] }) line_items: WireSubscriptionLine[];
}
