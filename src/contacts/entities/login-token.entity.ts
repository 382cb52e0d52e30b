import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A single-use portal link (login or password reset); only the SHA-256 of the token is kept. */
@Entity('login_token')
export class LoginToken {
  @PrimaryGeneratedColumn({ type: 'int' }) login_token_id: number;
  @Index() @Column({ type: 'int' }) user_id: number;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 64 }) token_sha256: string;
  /** `login` or `password-reset`. */
  @Column({ type: 'varchar', length: 16 }) purpose: string;
  @Column({ type: 'varchar', length: 32, nullable: true }) destination: string | null;
  @Column({ type: 'datetime' }) expires_datetime: Date;
  @Column({ type: 'datetime', nullable: true }) used_datetime: Date | null;
}
