import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One POST of a delivery: what the receiver answered (body kept for non-200 answers). */
@Entity('webhook_attempt')
@Index(['webhook_delivery_id', 'attempt'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ type: 'int' }) webhook_attempt_id: number;
  @Column({ type: 'int' }) webhook_delivery_id: number;
  @Column({ type: 'int' }) attempt: number;
  @Column({ type: 'datetime' }) attempt_datetime: Date;
  @Column({ type: 'int', nullable: true }) response_code: number | null;
  @Column({ type: 'text', nullable: true }) response_body: string | null;
  /** Why there was no usable answer: refused target, timeout, connection error, redirect. */
  @Column({ type: 'varchar', length: 255, nullable: true }) error: string | null;
}
