import Decimal from 'decimal.js';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';

/**
 * The `receivables` report's narrow copy of the open invoices (DESIGN §6 "Analytics"):
 * each invoice whose status is open and that is not deleted, with what the report reads,
 * and whether money was ever applied to it (only those need their applications summed).
 * Row triggers on `invoice` and `transaction_applied` (migration OpenInvoices) keep it in
 * step in the transaction of every write, whichever module makes it.
 */
@Entity('open_invoice')
export class OpenInvoice {
  @PrimaryColumn({ type: 'int' }) invoice_id: number;
  @Column({ type: 'int' }) currency_id: number;
  @Column({ type: 'int' }) customer_id: number;
  @Column({ type: 'date' }) date: string;
  @Column({ type: 'date' }) due_date: string;
  @Column(AMOUNT) total: Decimal;
  @Column({ type: 'datetime', nullable: true }) void_datetime: Date | null;
  @Column({ type: 'int', default: 0 }) has_applications: number;
}
