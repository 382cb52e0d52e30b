import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The end of a subscription (DESIGN §6 "Cancellation"): written when it is cancelled, now
 * or at a future `cancel_date`, or when it expires (its end: the end of its last cycle). At `end_datetime` (at once, or by the due work
 * SubscriptionEndings) the unused part of the billed cycle is credited when
 * `cancel_prorate` was asked and the usage since the last cycle start goes on a final
 * invoice; `finished_datetime` marks that done, once (the unique key: one end per subscription).
 */
@Entity('package_ending')
export class SubscriptionEnding {
  @PrimaryGeneratedColumn({ type: 'int' }) package_ending_id: number;
  @Index({ unique: true }) @Column({ type: 'int' }) package_id: number;
  @Column({ type: 'datetime' }) end_datetime: Date;
  @Column({ type: 'boolean', default: false }) cancel_prorate: boolean;
  /**
   * Where the final usage period starts: set for an expiry (the last cycle's start); null
   * for a cancel, whose last cycle start is read when it ends (cycles may be billed till then).
   */
  @Column({ type: 'datetime', nullable: true }) usage_from: Date | null;
  @Index() @Column({ type: 'datetime', nullable: true }) finished_datetime: Date | null;
  /** The final invoice (usage in arrears), when there was usage to bill. */
  @Column({ type: 'int', nullable: true }) invoice_id: number | null;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
