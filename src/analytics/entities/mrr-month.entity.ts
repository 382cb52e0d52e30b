import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `mrr` and `churn` reports' rollup (DESIGN §6 "Analytics"): per currency and month, in
 * whole cents, the MRR movements of the customers whose MRR changed in the month, and how
 * many were new, reactivated or churned. Kept by MrrHistory in the transaction that writes
 * the `mrr_change` rows (mrr-rollup.ts); a report reads a few hundred rows instead of every
 * customer's history. Each (currency, month) is split over shards by customer id, so
 * writers of one month seldom wait on one row; a report sums them.
 */
@Entity('mrr_month')
@Index(['currency_id', 'month', 'shard'], { unique: true })
export class MrrMonthRollup {
  @PrimaryGeneratedColumn({ type: 'int' }) mrr_month_id: number;
  @Column({ type: 'int' }) currency_id: number;
  @Column({ type: 'varchar', length: 7 }) month: string;
  @Column({ type: 'int' }) shard: number;
  @Column({ type: 'bigint', default: 0 }) new_cents: string;
  @Column({ type: 'bigint', default: 0 }) new_count: string;
  @Column({ type: 'bigint', default: 0 }) expansion_cents: string;
  @Column({ type: 'bigint', default: 0 }) contraction_cents: string;
  @Column({ type: 'bigint', default: 0 }) churned_cents: string;
  @Column({ type: 'bigint', default: 0 }) churned_count: string;
  @Column({ type: 'bigint', default: 0 }) reactivation_cents: string;
  @Column({ type: 'bigint', default: 0 }) reactivation_count: string;
}
