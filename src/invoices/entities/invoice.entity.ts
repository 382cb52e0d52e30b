import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { DeletableRecord, customColumns } from 'src/database/base-record';

/** The columns of the invoice index that gives an invoice's currency and total by id. */
export const INVOICE_AMOUNT_INDEX = ['invoice_id', 'currency_id', 'total'];

/**
 * An invoice (SPEC "Invoice"). Line sums are stored by the writer (one pricing pass,
 * so lists need no line query); money applied by payments comes through
 * InvoiceExtensions; the status is kept current by InvoiceStatusUpdater.
 */
@Entity('invoice')
@customColumns(20, 3)
// A customer's overdue invoices (its derived status): one range per open status.
@Index(['customer_id', 'invoice_status_str', 'due_date'])
// Activity (customer-activity.ts): an invoice dated in the last 90 days, one range per customer.
@Index(['customer_id', 'date'])
// Past-due invoices across customers (invoice-status.ts readStatusEqualsSql); with
// deleted_datetime their count needs no row.
@Index(['invoice_status_str', 'due_date', 'deleted_datetime'])
// Dunning (analytics): a collection's invoice currency and total, without the wide row.
@Index(INVOICE_AMOUNT_INDEX)
export class Invoice extends DeletableRecord {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) invoice_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Index() @Column({ type: 'int', nullable: true }) package_id: number | null;
  @Index() @Column({ type: 'varchar', length: 64, nullable: true }) refnumber: string | null;
  @Index() @Column({ type: 'date' }) date: string;
  @Index() @Column({ type: 'date' }) due_date: string;
  @Index() @Column({ type: 'int', default: 1 }) currency_id: number;
  @Column({ type: 'int', nullable: true }) class_id: number | null;
  @Column({ type: 'varchar', length: 8, default: 'one' }) paycycle: string;
  @Column({ type: 'int', default: 3 }) terms_id: number;
  @Column({ type: 'int', nullable: true }) admin_id: number | null;
  @Column({ type: 'int', default: 1 }) brand_id: number;

  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr1: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr2: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr3: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) bill_city: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) bill_state: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) bill_postcode: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) bill_country: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_notes: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr1: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr2: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr3: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) ship_city: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) ship_state: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) ship_postcode: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) ship_country: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_notes: string | null;
  @Column({ type: 'text', nullable: true }) memo: string | null;
  @Column({ type: 'simple-json', nullable: true }) tags: string[] | null;

  /** Billing-cycle dates, set by invoices generated from subscriptions. */
  @Column({ type: 'date', nullable: true }) cycle_pre_from_date: string | null;
  @Column({ type: 'date', nullable: true }) cycle_pre_to_date: string | null;
  @Column({ type: 'date', nullable: true }) cycle_this_date: string | null;
  @Column({ type: 'date', nullable: true }) cycle_post_from_date: string | null;
  @Column({ type: 'date', nullable: true }) cycle_post_to_date: string | null;

  @Column(AMOUNT) subtotal: Decimal;
  @Column(AMOUNT) taxes: Decimal;
  @Column(AMOUNT) total: Decimal;
  @Column(AMOUNT) sum_base: Decimal;
  @Column(AMOUNT) sum_usage: Decimal;
  @Column(AMOUNT) sum_onetime: Decimal;

  /** Kept current by InvoiceStatusUpdater; `open-overdue` is also derived from `due_date` on read. */
  @Index() @Column({ type: 'varchar', length: 32, default: 'open-unpaid' }) invoice_status_str: string;
  @Column({ type: 'boolean', default: false }) in_collections: boolean;
  /** Indexed for revenue analytics: the invoices voided (written off) in a month. */
  @Index() @Column({ type: 'datetime', nullable: true }) void_datetime: Date | null;
}
