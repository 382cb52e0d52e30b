import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';

/**
 * What one subscription change did to MRR (DESIGN §6 "Analytics"), written when it
 * happens: the subscription's MRR after it and the difference from before. A month's
 * figures are sums of these rows, so a later price change, upgrade or deletion never
 * changes a month that has passed. `month` is the account-zone month of the change.
 */
@Entity('mrr_change')
// The MRR report: each customer's rows month by month, with the delta (no table row read).
@Index(['currency_id', 'customer_id', 'month', 'delta'])
// The last row of a subscription (its MRR as recorded) and when it was written.
@Index(['package_id', 'change_datetime'])
export class MrrChange {
  @PrimaryGeneratedColumn({ type: 'int' }) mrr_change_id: number;
  @Column({ type: 'int' }) package_id: number;
  @Column({ type: 'int' }) customer_id: number;
  @Column({ type: 'int' }) currency_id: number;
  @Column({ type: 'datetime' }) change_datetime: Date;
  @Column({ type: 'varchar', length: 7 }) month: string;
  @Column(AMOUNT) mrr: Decimal;
  @Column(AMOUNT) delta: Decimal;
}
