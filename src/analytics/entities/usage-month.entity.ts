import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `usage` report's rollup (DESIGN §6 "Analytics"): per currency, month (invoice date)
 * and metered item, the units (millionths) and amounts (cents) billed on usage lines of
 * invoices neither void nor deleted. Row triggers on `invoice_line` and `invoice`
 * (migration UsageRollup) keep it in step in the transaction of every write; as with
 * `revenue_month`, each key is split over shards by invoice id and a report sums them.
 */
@Entity('usage_month')
@Index(['currency_id', 'month', 'item_id', 'shard'], { unique: true })
export class UsageMonthRollup {
  @PrimaryGeneratedColumn({ type: 'int' }) usage_month_id: number;
  @Column({ type: 'int' }) currency_id: number;
  @Column({ type: 'varchar', length: 7 }) month: string;
  @Column({ type: 'int' }) item_id: number;
  @Column({ type: 'int' }) shard: number;
  @Column({ type: 'bigint', default: 0 }) line_count: string;
  @Column({ type: 'bigint', default: 0 }) units_micro: string;
  @Column({ type: 'bigint', default: 0 }) amount_cents: string;
}
