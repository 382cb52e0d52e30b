import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT, DecimalTransformer, RATE } from 'src/core/money/decimal.transformer';
import { customColumns } from 'src/database/base-record';

/** Proration fractions keep 9 places (DESIGN §5). */
export const FRACTION = { type: 'decimal', precision: 18, scale: 9, transformer: new DecimalTransformer(9) } as const;

/** What a line bills: a manual line (POST /invoice), or one a subscription generated. */
export const LINE_ORIGINS = ['manual', 'recurring', 'usage', 'setup', 'proration', 'trial'] as const;
export type LineOrigin = (typeof LINE_ORIGINS)[number];

/** A line of an invoice; its amounts come from the pricing module when it is written. */
@Entity('invoice_line')
@customColumns(10, 3)
export class InvoiceLine {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) line_item_id: number;
  @Index() @Column({ type: 'int' }) invoice_id: number;
  @Index() @Column({ type: 'int' }) item_id: number;
  @Column({ type: 'int', nullable: true }) tierset_id: number | null;
  @Column({ type: 'int', nullable: true }) package_line_id: number | null;
  @Column({ type: 'int', nullable: true }) admin_id: number | null;
  @Column({ type: 'int', default: 0 }) sort_order: number;
  @Column({ type: 'text', nullable: true }) descrip: string | null;
  @Column({ type: 'varchar', length: 8, default: 'one' }) paycycle: string;
  @Column(RATE) line_rate: Decimal;
  @Column(RATE) line_quantity: Decimal;
  @Column(RATE) line_usage: Decimal;
  @Column({ ...FRACTION, nullable: true }) line_prorate: Decimal | null;
  @Column(AMOUNT) line_subtotal: Decimal;
  @Column(AMOUNT) line_total: Decimal;
  @Column(AMOUNT) tax_taxable: Decimal;
  @Column(AMOUNT) tax_taxed: Decimal;
  @Column(AMOUNT) tax_total: Decimal;
  @Column({ type: 'int', nullable: true }) tax_id: number | null;
  @Column({ type: 'int', nullable: true }) tax_group_id: number | null;
  @Column({ type: 'datetime', nullable: true }) usage_from: Date | null;
  @Column({ type: 'datetime', nullable: true }) usage_to: Date | null;
  @Column({ type: 'boolean', default: false }) is_base: boolean;
  @Column({ type: 'boolean', default: false }) is_setup: boolean;
  @Column({ type: 'boolean', default: false }) is_usage: boolean;
  @Column({ type: 'boolean', default: false }) is_free: boolean;
  @Column({ type: 'boolean', default: false }) is_recurring: boolean;
  @Column({ type: 'boolean', default: false }) is_taxed: boolean;
  @Column({ type: 'boolean', default: false }) is_latefee: boolean;
  @Column({ type: 'boolean', default: false }) is_obligation: boolean;
  /** Internal (not on the wire): what the line bills and the period it covers. */
  @Column({ type: 'varchar', length: 16, default: 'manual' }) line_origin: LineOrigin;
  @Column({ type: 'datetime', nullable: true }) period_from: Date | null;
  @Column({ type: 'datetime', nullable: true }) period_to: Date | null;
}
