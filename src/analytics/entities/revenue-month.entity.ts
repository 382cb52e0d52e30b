import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `revenue` report's rollup (DESIGN §6 "Analytics"): per currency and month, in whole
 * cents, the invoices' totals by invoice date and the counted payments, refunds and credit
 * memos by transaction date. Row triggers on `invoice` and `payment_transaction` (migration
 * RevenueRollup) keep it in step in the transaction of every write, whichever module makes
 * it. Each (currency, month) is split over SHARDS rows by the written row's id, so writers
 * of one month seldom wait on one row; a report sums them.
 */
@Entity('revenue_month')
@Index(['currency_id', 'month', 'shard'], { unique: true })
export class RevenueMonthRollup {
  @PrimaryGeneratedColumn({ type: 'int' }) revenue_month_id: number;
  @Column({ type: 'int' }) currency_id: number;
  @Column({ type: 'varchar', length: 7 }) month: string;
  @Column({ type: 'int' }) shard: number;
  @Column({ type: 'bigint', default: 0 }) invoiced_cents: string;
  @Column({ type: 'bigint', default: 0 }) collected_cents: string;
  @Column({ type: 'bigint', default: 0 }) credits_cents: string;
  @Column({ type: 'bigint', default: 0 }) refunds_cents: string;
}
