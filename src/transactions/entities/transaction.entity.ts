import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';
import { BaseRecord, customColumns } from 'src/database/base-record';

export type TransactionType = 'pay' | 'ref' | 'cre' | 'spl';

/** A payment, refund or credit (SPEC "Transaction"). Derived fields are computed by the presenter. */
@Entity('payment_transaction')
@customColumns(5)
// Activity (customer-activity.ts): a transaction dated in the last 90 days, one range per customer.
@Index(['customer_id', 'transaction_date'])
export class Transaction extends BaseRecord {
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) transaction_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Index() @Column({ type: 'int', nullable: true }) parent_transaction_id: number | null;
  @Index() @Column({ type: 'int', nullable: true }) gateway_id: number | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) gateway_type: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) gateway_nickname: string | null;
  @Index() @Column({ type: 'int' }) gateway_status: number;
  @Index() @Column({ type: 'varchar', length: 255, nullable: true }) gateway_transid: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) gateway_method: string | null;
  @Column({ type: 'varchar', length: 255 }) gateway_msg: string;
  @Column({ type: 'int', nullable: true }) gateway_err_code: number | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) gateway_err_detail: string | null;
  @Index() @Column({ ...AMOUNT }) amount: Decimal;
  @Index() @Column({ ...AMOUNT }) fee: Decimal;
  @Index() @Column({ type: 'varchar', length: 3 }) transaction_type: TransactionType;
  @Index() @Column({ type: 'varchar', length: 64, nullable: true }) transaction_method: string | null;
  @Index() @Column({ type: 'varchar', length: 255, nullable: true }) transaction_detail: string | null;
  @Index() @Column({ type: 'varchar', length: 10 }) transaction_date: string;
  @Index() @Column({ type: 'datetime' }) transaction_datetime: Date;
  @Column({ type: 'varchar', length: 45, nullable: true }) transaction_ipaddr: string | null;
  @Column({ type: 'datetime', nullable: true }) void_datetime: Date | null;
  /** `ok-successful`, `ok-pending`, `fail-declined`, `fail-error`, `void-voided` (DESIGN §6). */
  @Index() @Column({ type: 'varchar', length: 32 }) status_str: string;
  @Index() @Column({ type: 'int' }) currency_id: number;
  @Column({ type: 'int' }) brand_id: number;
  @Index() @Column({ type: 'int', nullable: true }) creditcard_id: number | null;
  @Index() @Column({ type: 'int', nullable: true }) ach_id: number | null;
  @Index() @Column({ type: 'int', nullable: true }) tokenized_id: number | null;
  @Column({ type: 'text', nullable: true }) memo: string | null;
  /** Pending bank payments: when the settlement job may settle them. */
  @Index() @Column({ type: 'datetime', nullable: true }) settle_after_datetime: Date | null;
}
