import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A cycle of a subscription that has been billed (DESIGN §6 "Billing runs"), written in
 * the same unit as its invoice. The unique key makes a repeated attempt at the same cycle
 * (a doubled run, a restart, the `invoice` action racing a run) fail rather than bill twice.
 */
@Entity('billing_cycle')
@Index(['package_id', 'cycle_start'], { unique: true })
export class BillingCycle {
  @PrimaryGeneratedColumn({ type: 'int' }) billing_cycle_id: number;
  @Column({ type: 'int' }) package_id: number;
  @Column({ type: 'datetime' }) cycle_start: Date;
  /** Null when the cycle had nothing to bill (e.g. the first cycle of a metered-only subscription). */
  @Column({ type: 'int', nullable: true }) invoice_id: number | null;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
