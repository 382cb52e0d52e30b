import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Secrets the service generates once and keeps (the webhook shared token). */
@Entity('account_secret')
export class AccountSecret {
  @PrimaryColumn({ type: 'varchar', length: 64 }) name: string;
  @Column({ type: 'varchar', length: 255 }) value: string;
}
