import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { FRACTION } from 'src/invoices/entities/invoice-line.entity';

/**
 * A prorated charge (or credit, negative) from a line change with
 * `subscribe_prorate_cycle: next`, waiting for the subscription's next invoice;
 * `invoice_id` is set when an invoice carries it.
 */
@Entity('package_proration')
export class PendingProration {
  @PrimaryGeneratedColumn({ type: 'int' }) package_proration_id: number;
  @Index() @Column({ type: 'int' }) package_id: number;
  @Column({ type: 'int' }) package_line_id: number;
  @Column({ type: 'int' }) item_id: number;
  @Column({ type: 'int', nullable: true }) tierset_id: number | null;
  @Column({ type: 'text', nullable: true }) descrip: string | null;
  @Column(AMOUNT) amount: Decimal;
  @Column(FRACTION) line_prorate: Decimal;
  @Index() @Column({ type: 'int', nullable: true }) invoice_id: number | null;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
