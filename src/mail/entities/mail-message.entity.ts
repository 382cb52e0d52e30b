import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Every message the service sends (or would send, without SMTP) is recorded here. */
@Entity('mail_message')
@Index(['context_str', 'context_id'])
@Index(['status', 'write_datetime'])
export class MailMessage {
  @PrimaryGeneratedColumn({ type: 'int' }) mail_message_id: number;
  @Column({ type: 'varchar', length: 32, nullable: true }) context_str: string | null;
  @Column({ type: 'int', nullable: true }) context_id: number | null;
  @Column({ type: 'varchar', length: 1024 }) to_addr: string;
  @Column({ type: 'varchar', length: 1024, nullable: true }) cc_addr: string | null;
  @Column({ type: 'varchar', length: 1024, nullable: true }) bcc_addr: string | null;
  @Column({ type: 'varchar', length: 255 }) from_addr: string;
  @Column({ type: 'varchar', length: 255 }) subject: string;
  @Column({ type: 'text' }) body: string;
  /** `queued` (committed, not yet claimed), `sending`, then `sent`, `recorded` (no SMTP configured) or `failed`. */
  @Column({ type: 'varchar', length: 16 }) status: string;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
