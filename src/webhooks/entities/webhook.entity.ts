import { Column, DeleteDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A hook (`/_resthook`): where to POST which events, and the secret that signs them. */
@Entity('webhook')
export class Webhook {
  @PrimaryGeneratedColumn({ type: 'int' }) webhook_id: number;
  @Column({ type: 'varchar', length: 2048 }) target_url: string;
  /** `context.event`, `context.*` or `*`. */
  @Index() @Column({ type: 'varchar', length: 64 }) event: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) nickname: string | null;
  /** `whsec_<base64>`: kept in clear because every delivery is signed with it (HMAC). */
  @Column({ type: 'varchar', length: 128 }) secret: string;
  @Column({ type: 'datetime' }) write_datetime: Date;
  /** Deleted hooks stay, so their delivery log keeps its owner. */
  @DeleteDateColumn({ type: 'datetime', nullable: true }) deleted_datetime: Date | null;
}
