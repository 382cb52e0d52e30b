import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT, RATE } from 'src/core/money/decimal.transformer';
import { customColumns } from 'src/database/base-record';

/** A line of a quote, priced when written: at `line_rate`, at a tierset of its own, or at the item's price. */
@Entity('quote_line')
@customColumns(20, 0)
export class QuoteLine {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) line_item_id: number;
  @Index() @Column({ type: 'int' }) quote_id: number;
  @Index() @Column({ type: 'int' }) item_id: number;
  @Column({ type: 'int', nullable: true }) tierset_id: number | null;
  @Column({ type: 'int', default: 0 }) sort_order: number;
  @Column({ type: 'text', nullable: true }) descrip: string | null;
  @Column({ ...RATE, nullable: true }) line_rate: Decimal | null;
  @Column(RATE) line_quantity: Decimal;
  @Column({ type: 'int', nullable: true }) expire_recurs: number | null;
  @Column({ type: 'datetime', nullable: true }) subscribe_prorate_from_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) subscribe_prorate_to_datetime: Date | null;
  @Column(AMOUNT) line_subtotal: Decimal;
  @Column(AMOUNT) line_setup: Decimal;
  @Column(AMOUNT) line_tax: Decimal;
  @Column(AMOUNT) line_total: Decimal;
}
