import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DeletableRecord, customColumns } from 'src/database/base-record';

export type Delivery = 'print' | 'email';

/** A billed customer (SPEC "Customer"). Derived fields are computed by CustomerPresenter. */
@Entity('customer')
@customColumns(20, 5)
@Index(['open_due_date', 'customer_status_str', 'deleted_datetime'])
// Newest first (`order=write_datetime:DESC`, ties by ascending id): made by its migration.
@Index('IDX_customer_newest_first', { synchronize: false })
export class Customer extends DeletableRecord {
  /** `custom_1..N`, added as columns by @customColumns. */
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) customer_id: number;

  @Index()
  @Column({ type: 'int', nullable: true })
  parent_customer_id: number | null;

  @Index()
  @Column({ type: 'varchar', length: 255, nullable: true })
  company: string | null;

  @Column({ type: 'int', default: 1 }) language_id: number;
  @Column({ type: 'int', default: 1 }) currency_id: number;
  @Column({ type: 'int', nullable: true }) class_id: number | null;
  @Column({ type: 'int', nullable: true }) admin_id: number | null;
  @Column({ type: 'int', nullable: true }) campaign_id: number | null;
  @Column({ type: 'int', default: 1 }) brand_id: number;
  @Column({ type: 'int', default: 3 }) terms_id: number;
  @Column({ type: 'varchar', length: 255, nullable: true }) campaign_details: string | null;

  @Index()
  @Column({ type: 'int', nullable: true })
  superuser_id: number | null;

  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr1: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr2: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bill_addr3: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) bill_city: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) bill_state: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) bill_postcode: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) bill_country: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr1: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr2: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) ship_addr3: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) ship_city: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) ship_state: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) ship_postcode: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) ship_country: string | null;

  @Column({ type: 'boolean', default: false }) no_taxes: boolean;
  @Column({ type: 'boolean', default: false }) no_dunning: boolean;
  @Column({ type: 'boolean', default: false }) no_latefees: boolean;
  @Column({ type: 'boolean', default: false }) no_procfees: boolean;
  @Column({ type: 'varchar', length: 8, default: 'email' }) invoice_delivery: Delivery;
  @Column({ type: 'varchar', length: 8, default: 'email' }) dunning_delivery: Delivery;
  @Column({ type: 'varchar', length: 64, nullable: true }) tax_ident: string | null;
  @Column({ type: 'simple-json', nullable: true }) tags: string[] | null;

  /** Kept current by the writers and the nightly job, so it can be filtered in SQL. */
  @Index()
  @Column({ type: 'varchar', length: 32, default: 'active-current' })
  customer_status_str: string;

  /**
   * The earliest due date of its open invoices (null: none), kept by the invoice writers in
   * their transactions (invoices/open-due-dates.ts): the customer is overdue while it is
   * before today (customer-status.ts), so midnight needs no job. Indexed with the stored
   * status and deleted_datetime (the class's @Index), so a status count needs no row.
   */
  @Column({ type: 'date', nullable: true })
  open_due_date: string | null;

  @Column({ type: 'varchar', length: 8, nullable: true }) default_paymethod: string | null;
  @Column({ type: 'int', nullable: true }) default_creditcard_id: number | null;
  @Column({ type: 'int', nullable: true }) default_ach_id: number | null;
  @Column({ type: 'int', nullable: true }) default_tokenized_id: number | null;
}
