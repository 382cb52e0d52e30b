import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Outbox row: written in the same transaction as the change it describes, so a crash
 * can never lose an event or announce a change that rolled back. Webhook delivery
 * reads from here.
 */
@Entity('domain_event')
@Index(['context_str', 'context_id', 'domain_event_id'])
export class DomainEvent {
  @PrimaryGeneratedColumn({ type: 'int' }) domain_event_id: number;
  @Column({ type: 'varchar', length: 32 }) context_str: string;
  @Column({ type: 'varchar', length: 64 }) context_id: string;
  @Column({ type: 'varchar', length: 32 }) event: string;
  @Column({ type: 'simple-json' }) data: Record<string, unknown>;
  /** `_flag_webhooks=0` on the request that caused it. */
  @Column({ type: 'boolean', default: false }) suppress_webhooks: boolean;
  @Column({ type: 'datetime' }) event_datetime: Date;
}
