import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { BaseRecord, customColumns } from 'src/database/base-record';

/**
 * A quote (SPEC "Quote"): an offer that, once accepted, becomes an invoice (`one`) or a
 * subscription. Its sums are stored by the writer (one pricing pass), so lists need no
 * line query; `invoice_id` / `package_id` name what it became.
 */
@Entity('quote')
@customColumns(20, 3)
// Activity (customer-activity.ts): a quote dated in the last 90 days, one range per customer.
@Index(['customer_id', 'date'])
export class Quote extends BaseRecord {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) quote_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Index() @Column({ type: 'varchar', length: 64, nullable: true }) refnumber: string | null;
  @Index() @Column({ type: 'varchar', length: 8 }) paycycle: string;
  @Column({ type: 'varchar', length: 255, default: '' }) nickname: string;
  @Index() @Column({ type: 'date' }) date: string;
  @Column({ type: 'date', nullable: true }) validuntil_date: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) holduntil_datetime_str: string | null;
  @Column({ type: 'int', default: 1 }) currency_id: number;
  @Column({ type: 'int', default: 3 }) terms_id: number;
  @Column({ type: 'int', nullable: true }) class_id: number | null;
  @Column({ type: 'int', default: 1 }) brand_id: number;
  @Column({ type: 'int', nullable: true }) admin_id: number | null;

  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr1: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr2: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr3: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) bill_city: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) bill_state: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) bill_postcode: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) bill_country: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_notes: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr1: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr2: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr3: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) ship_city: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) ship_state: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) ship_postcode: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) ship_country: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_notes: string | null;
  @Column({ type: 'varchar', length: 1024, nullable: true }) url_acceptredirect: string | null;
  @Column({ type: 'varchar', length: 1024, nullable: true }) url_rejectredirect: string | null;
  @Column({ type: 'text', nullable: true }) memo: string | null;

  @Column(AMOUNT) subtotal: Decimal;
  @Column(AMOUNT) setup: Decimal;
  @Column(AMOUNT) taxes: Decimal;
  @Column(AMOUNT) total: Decimal;
  @Column(AMOUNT) upfront: Decimal;

  @Index() @Column({ type: 'varchar', length: 32, default: 'open-new' }) quote_status_str: string;
  @Column({ type: 'datetime', nullable: true }) won_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) lost_datetime: Date | null;
  @Column({ type: 'int', nullable: true }) invoice_id: number | null;
  @Column({ type: 'int', nullable: true }) package_id: number | null;
}
