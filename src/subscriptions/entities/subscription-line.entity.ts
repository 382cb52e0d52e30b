import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { RATE } from 'src/core/money/decimal.transformer';
import { customColumns } from 'src/database/base-record';

/**
 * A line of a subscription. `tierset_id` is the price it bills at: the item's price when
 * it was subscribed, or a tierset of its own (a per-line override). A replaced or removed
 * line keeps its row with `cancel_datetime` set.
 */
@Entity('package_line')
@customColumns(3, 0)
export class SubscriptionLine {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) line_item_id: number;
  @Index() @Column({ type: 'int' }) package_id: number;
  @Index() @Column({ type: 'int' }) item_id: number;
  @Column({ type: 'int', nullable: true }) tierset_id: number | null;
  @Column({ type: 'int', nullable: true }) admin_id: number | null;
  @Index() @Column({ type: 'varchar', length: 255, nullable: true }) external_key: string | null;
  @Column({ type: 'varchar', length: 255, default: '' }) nickname: string;
  @Column({ type: 'text', nullable: true }) descrip: string | null;
  @Column(RATE) line_quantity: Decimal;
  @Column({ type: 'int', default: 0 }) trial_days: number;
  @Column({ type: 'int', nullable: true }) trial_recurs: number | null;
  /** subscribe + trial_days: the line is in trial until then (null = no trial days). */
  @Column({ type: 'datetime', nullable: true }) trial_end_datetime: Date | null;
  @Column({ type: 'int', default: 0 }) trial_units: number;
  @Column({ type: 'datetime' }) subscribe_datetime: Date;
  @Column({ type: 'datetime', nullable: true }) subscribe_prorate_from_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) subscribe_prorate_to_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) cancel_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) expire_datetime: Date | null;
  @Column({ type: 'int', nullable: true }) expire_recurs: number | null;
  /** Invoices this line has been billed on (setup once, trial_recurs, expire_recurs). */
  @Column({ type: 'int', default: 0 }) invoices_billed: number;
  @Column({ type: 'varchar', length: 255, default: '' }) license: string;
}
