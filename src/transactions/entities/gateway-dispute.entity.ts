import Decimal from 'decimal.js';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { AMOUNT } from 'src/core/money/decimal.transformer';

/** A payment the payer disputed with their bank (Stripe's `charge.dispute.created`). */
@Entity('gateway_dispute')
export class GatewayDispute {
  /** The gateway's dispute id (`dp_…`). */
  @PrimaryColumn({ type: 'varchar', length: 255 }) dispute_id: string;
  @Index() @Column({ type: 'int' }) transaction_id: number;
  @Column({ ...AMOUNT }) amount: Decimal;
  @Column({ type: 'varchar', length: 64 }) reason: string;
  @Column({ type: 'varchar', length: 64 }) status: string;
  @Column({ type: 'datetime' }) created_datetime: Date;
}
