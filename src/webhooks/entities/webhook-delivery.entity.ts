import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'given_up'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to one hook: written in the same transaction as the change (so it is as
 * durable as the change), then attempted until delivered or given up. Due rows are
 * claimed with a conditional UPDATE of the lease, so several instances never send one
 * attempt twice.
 */
@Entity('webhook_delivery')
@Index(['status', 'next_attempt_datetime'])
@Index(['webhook_id', 'webhook_delivery_id'])
@Index(['webhook_id', 'domain_event_id'], { unique: true })
@Index(['context_str', 'context_id'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'int' }) webhook_delivery_id: number;
  @Column({ type: 'int' }) webhook_id: number;
  @Index() @Column({ type: 'int' }) domain_event_id: number;
  /** The Standard Webhooks `webhook-id`: the same on every attempt, so receivers can dedupe. */
  @Index({ unique: true }) @Column({ type: 'varchar', length: 40 }) message_id: string;
  @Column({ type: 'varchar', length: 32 }) context_str: string;
  @Column({ type: 'varchar', length: 64 }) context_id: string;
  @Column({ type: 'varchar', length: 32 }) event: string;
  @Column({ type: 'varchar', length: 16 }) status: DeliveryStatus;
  @Column({ type: 'int', default: 0 }) attempts: number;
  @Column({ type: 'datetime', nullable: true }) next_attempt_datetime: Date | null;
  /** Lease of the instance making the current attempt; expired leases may be claimed again. */
  @Column({ type: 'datetime', nullable: true }) locked_until_datetime: Date | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) lease_token: string | null;
  @Column({ type: 'datetime', nullable: true }) last_attempt_datetime: Date | null;
  @Column({ type: 'int', nullable: true }) last_response_code: number | null;
  @Column({ type: 'datetime', nullable: true }) delivered_datetime: Date | null;
  @Index() @Column({ type: 'datetime' }) write_datetime: Date;
}
