import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';

/** When and how an invoice's money is due (by default one entry: the whole total on `due_date`). */
@Entity('invoice_schedule')
export class InvoiceSchedule {
  @PrimaryGeneratedColumn({ type: 'int' }) invoice_schedule_id: number;
  @Index() @Column({ type: 'int' }) invoice_id: number;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 12 }) token: string;
  @Column({ type: 'varchar', length: 8, default: 'inv' }) paymethod: string;
  @Column({ type: 'int', nullable: true }) creditcard_id: number | null;
  @Column({ type: 'int', nullable: true }) ach_id: number | null;
  @Column({ type: 'int', nullable: true }) tokenized_id: number | null;
  @Column({ type: 'date' }) due_date: string;
  @Column(AMOUNT) amount: Decimal;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
