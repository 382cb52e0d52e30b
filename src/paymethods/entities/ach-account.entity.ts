import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DeletableRecord } from 'src/database/base-record';

/** A stored bank account: masked number, routing number and the gateway's token. */
@Entity('ach')
@Index(['customer_id', 'routing', 'last4'])
export class AchAccount extends DeletableRecord {
  @PrimaryGeneratedColumn({ type: 'int' }) ach_id: number;
  @Index() @Column({ type: 'int' }) customer_id: number;
  @Column({ type: 'varchar', length: 8 }) type: string;
  @Column({ type: 'varchar', length: 32 }) mask_number: string;
  @Column({ type: 'varchar', length: 4 }) last4: string;
  @Column({ type: 'varchar', length: 9 }) routing: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) name: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) bank: string | null;
  @Column({ type: 'varchar', length: 128 }) gateway_token: string;
}
