import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * `due`: a charge is due at `next_attempt_datetime`; `charging`: the payment attempt
 * `payment_attempt_id` is in flight; `paid`: a charge was accepted; `failed`: the last
 * charge of the dunning schedule failed (or the first, for a customer with `no_dunning`);
 * `closed`: the invoice was paid or voided otherwise, nothing is charged.
 */
export type CollectionStatus = 'due' | 'charging' | 'paid' | 'failed' | 'closed';

/**
 * The automatic collection of one subscription invoice paid by card, bank account or
 * token (DESIGN §6 "Billing runs"). Written in the transaction that issues the invoice,
 * so it can be neither lost nor doubled; claimed together with its payment attempt, so a
 * restart never charges the invoice twice.
 */
@Entity('invoice_collection')
@Index(['status', 'next_attempt_datetime'])
export class InvoiceCollection {
  @PrimaryGeneratedColumn({ type: 'int' }) invoice_collection_id: number;
  @Index({ unique: true }) @Column({ type: 'int' }) invoice_id: number;
  @Index() @Column({ type: 'int' }) package_id: number;
  @Column({ type: 'int' }) customer_id: number;
  @Column({ type: 'varchar', length: 10 }) status: CollectionStatus;
  /** When the next charge is due (the first at issue, then the dunning retries); null once over. */
  @Column({ type: 'datetime', nullable: true }) next_attempt_datetime: Date | null;
  /** Charges declined so far. */
  @Column({ type: 'int' }) failures: number;
  /** The first decline: the retries are counted from it. */
  @Column({ type: 'datetime', nullable: true }) first_failed_datetime: Date | null;
  /** The attempt of the charge in flight, or of the last one. */
  @Column({ type: 'int', nullable: true }) payment_attempt_id: number | null;
  @Column({ type: 'datetime' }) created_datetime: Date;
  @Column({ type: 'datetime' }) mod_datetime: Date;
}
