import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { RATE } from 'src/core/money/decimal.transformer';

/**
 * One usage value pushed for a metered subscription line (`POST /usage`). Rows are
 * never changed: the billing run reads those of a line whose `from_datetime` falls in the
 * cycle it bills in arrears. `external_key` makes ingestion idempotent.
 */
@Entity('usage_record')
@Index(['line_item_id', 'from_datetime'])
export class UsageRecord {
  @PrimaryGeneratedColumn({ type: 'int' }) usage_id: number;
  @Column({ type: 'int' }) line_item_id: number;
  @Index() @Column({ type: 'int' }) package_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Column(RATE) usage_value: Decimal;
  /** `add` (summed), `max` (the largest) or `lat` (the latest) over the cycle. */
  @Column({ type: 'varchar', length: 3 }) type: string;
  /** Rounding after aggregation: `ceil`, `round` (comma-separated; empty for none). */
  @Column({ type: 'varchar', length: 16, default: '' }) options: string;
  @Column({ type: 'datetime' }) from_datetime: Date;
  @Column({ type: 'datetime' }) to_datetime: Date;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 255, nullable: true }) external_key: string | null;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
