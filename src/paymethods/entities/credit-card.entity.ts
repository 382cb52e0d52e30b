import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DeletableRecord } from 'src/database/base-record';

/**
 * A stored card. Only the brand, the last four digits, the expiry and the gateway's
 * token are kept: the full number and the CVV never reach the database.
 */
@Entity('creditcard')
@Index(['customer_id', 'type', 'last4', 'expdate_year', 'expdate_month'])
export class CreditCard extends DeletableRecord {
  @PrimaryGeneratedColumn({ type: 'int' }) creditcard_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Column({ type: 'varchar', length: 8 }) type: string;
  @Column({ type: 'varchar', length: 4 }) last4: string;
  @Column({ type: 'int' }) expdate_year: number;
  @Column({ type: 'int' }) expdate_month: number;
  @Column({ type: 'varchar', length: 255, nullable: true }) name: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) address: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) city: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) state: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) postcode: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) country: string | null;
  @Column({ type: 'varchar', length: 128 }) gateway_token: string;
}
