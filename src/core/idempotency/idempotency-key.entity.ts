import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A POST's `Idempotency-Key` with the answer it got (Stripe's model): a retry with the
 * same key and request gets this answer instead of running again. Kept per credential
 * until `expires_datetime` (24 hours).
 */
@Entity('idempotency_key')
@Index(['api_credential_id', 'idempotency_key'], { unique: true })
export class IdempotencyKey {
  @PrimaryGeneratedColumn({ type: 'int' }) idempotency_key_id: number;
  @Column({ type: 'int' }) api_credential_id: number;
  @Column({ type: 'varchar', length: 255 }) idempotency_key: string;
  /** SHA-256 of method, path and body: the same key with another request is refused. */
  @Column({ type: 'varchar', length: 64 }) request_hash: string;
  /**
   * `running` until the first answer is written, then `done`; `written` in between once a
   * unit of work of the request has committed (set in that unit's transaction).
   */
  @Column({ type: 'varchar', length: 10 }) status: 'running' | 'written' | 'done';
  @Column({ type: 'int', nullable: true }) response_code: number | null;
  @Column({ type: 'simple-json', nullable: true }) response_headers: Record<string, string> | null;
  @Column({ type: 'text', nullable: true }) response_body: string | null;
  @Column({ type: 'datetime' }) created_datetime: Date;
  @Index() @Column({ type: 'datetime' }) expires_datetime: Date;
}
