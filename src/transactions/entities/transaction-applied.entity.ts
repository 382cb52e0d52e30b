import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { customColumns } from 'src/database/base-record';

/** One application of a transaction to an invoice (refunds apply negative amounts). */
@Entity('transaction_applied')
@customColumns(5)
export class TransactionApplied {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) transaction_applied_id: number;
  @Index() @Column({ type: 'int' }) transaction_id: number;
  @Index() @Column({ type: 'int' }) invoice_id: number;
  @Column({ type: 'int', nullable: true }) invoice_schedule_id: number | null;
  /** The invoice's customer (may be a child of the payer): customer rule 2 reads it without a join. */
  @Index() @Column({ type: 'int' }) invoice_customer_id: number;
  @Column({ ...AMOUNT }) applied: Decimal;
  @Column({ type: 'text', nullable: true }) memo: string | null;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
