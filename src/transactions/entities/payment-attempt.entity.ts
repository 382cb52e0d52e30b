import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';

/** What an attempt reserves on invoices (a charge) or takes back from them (a refund). */
export interface AttemptApplication {
  invoice_id: number;
  invoice_schedule_id: number | null;
  invoice_customer_id: number;
  /** Exact decimal text. */
  applied: string;
}

export type AttemptStatus = 'pending' | 'completed' | 'failed';

/**
 * A charge or refund asked of the gateway, recorded (and committed) before the gateway
 * is called, then completed or failed after: a gateway call is never without a record.
 * While pending it reserves what it pays on invoices (and its external key), so a second
 * request for the same debt is refused before it is charged. A crash between leaves it
 * pending, for PaymentAttemptSweeper to resolve against the gateway by its `reference`.
 */
@Entity('payment_attempt')
export class PaymentAttempt {
  @PrimaryGeneratedColumn({ type: 'int' }) payment_attempt_id: number;
  /** The gateway's idempotency reference for the call now in flight. */
  @Index({ unique: true }) @Column({ type: 'varchar', length: 64 }) reference: string;
  @Column({ type: 'varchar', length: 10 }) kind: 'charge' | 'refund';
  @Index() @Column({ type: 'varchar', length: 10 }) status: AttemptStatus;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Column({ ...AMOUNT }) amount: Decimal;
  /** The payment a refund gives back. */
  @Index() @Column({ type: 'int', nullable: true }) parent_transaction_id: number | null;
  /** The pay request's external key, held from before the charge until its transaction carries it. */
  @Index({ unique: true }) @Column({ type: 'varchar', length: 255, nullable: true }) external_key: string | null;
  @Column({ type: 'simple-json' }) applications: AttemptApplication[];
  /** What the transaction will record (sources tried in order, request fields): JSON. */
  @Column({ type: 'simple-json' }) request: Record<string, unknown>;
  /** The index of the source in flight (a charge tries its sources in order). */
  @Column({ type: 'int' }) source_index: number;
  /** The transaction written when it was resolved (a failed charge is recorded too). */
  @Column({ type: 'int', nullable: true }) transaction_id: number | null;
  @Column({ type: 'datetime' }) created_datetime: Date;
  @Column({ type: 'datetime', nullable: true }) resolved_datetime: Date | null;
}
