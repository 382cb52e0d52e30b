import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { BaseRecord, customColumns } from 'src/database/base-record';

/**
 * A subscription ("package", DESIGN §6 "Subscriptions"). `package_status_str` stores what
 * only an action decides (active, canceled-manual, canceled-nonpayment, expired-expired);
 * suspension, overdue and trial are derived from the dates and invoices on read
 * (subscription-status.ts), so a timed change needs no job to become true.
 */
@Entity('package')
@customColumns(5, 3)
// Activity (customer-activity.ts): an active subscription, one lookup per customer.
@Index(['customer_id', 'package_status_str'])
export class Subscription extends BaseRecord {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) package_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Index() @Column({ type: 'varchar', length: 255, default: '' }) nickname: string;
  @Index() @Column({ type: 'varchar', length: 8, default: 'inv' }) paymethod: string;
  @Index() @Column({ type: 'varchar', length: 8, default: 'mon' }) paycycle: string;
  @Column({ type: 'int', default: 3 }) terms_id: number;
  @Column({ type: 'int', nullable: true }) class_id: number | null;
  @Column({ type: 'int', nullable: true }) admin_id: number | null;
  @Column({ type: 'int', default: 1 }) currency_id: number;
  @Column({ type: 'int', default: 1 }) brand_id: number;
  @Column({ type: 'int', nullable: true }) creditcard_id: number | null;
  @Column({ type: 'int', nullable: true }) ach_id: number | null;
  @Column({ type: 'int', nullable: true }) tokenized_id: number | null;

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

  /** The cycle anchor (DESIGN §6): the start, or the hold date when held at creation. */
  @Column({ type: 'datetime' }) start_datetime: Date;
  @Column({ type: 'datetime', nullable: true }) suspendfrom_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) suspendto_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) cancel_datetime: Date | null;
  @Column({ type: 'datetime', nullable: true }) holduntil_datetime: Date | null;
  /** Start of the next cycle to bill; null once cancelled or expired. */
  @Index() @Column({ type: 'datetime', nullable: true }) next_invoice_datetime: Date | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) cancel_reason: string | null;
  @Index() @Column({ type: 'varchar', length: 32, default: 'active' }) package_status_str: string;
  /**
   * Monthly recurring revenue of its live lines at their prices (DESIGN §6 "MRR/ARR"), to
   * the cent, kept by every writer of lines, paycycle or status (subscription-mrr.ts).
   */
  @Column({ ...AMOUNT, default: 0 }) mrr: Decimal;
  /** The earliest due date of its open invoices, kept by the invoice writers (invoices/open-due-dates.ts). */
  @Index() @Column({ type: 'date', nullable: true }) open_due_date: string | null;
}
