import { Column, DeleteDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A payment method kept in an outside vault: only its vault token is stored (shown as
 * `token` on the wire, as recorded), so it has no random token of its own.
 */
@Entity('tokenized')
export class TokenizedPaymethod {
  @PrimaryGeneratedColumn({ type: 'int' }) tokenized_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Column({ type: 'varchar', length: 255 }) vault_token: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) type: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) name: string | null;
  @Column({ type: 'varchar', length: 8, nullable: true }) paymethod_hint: string | null;
  @Column({ type: 'varchar', length: 8, nullable: true }) type_hint: string | null;
  @Column({ type: 'varchar', length: 10, nullable: true }) expdate: string | null;
  /** Last four digits as the gateway told them (Stripe's PaymentMethod); never the number. */
  @Column({ type: 'varchar', length: 4, nullable: true }) last4: string | null;
  @Index() @Column({ type: 'datetime' }) write_datetime: Date;
  @Column({ type: 'varchar', length: 45, nullable: true }) write_ipaddr: string | null;
  @DeleteDateColumn({ type: 'datetime', nullable: true }) deleted_datetime: Date | null;
}
