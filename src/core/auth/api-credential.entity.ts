import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An API username and the SHA-256 digest of its high-entropy secret. A fast digest is
 * enough because the secret is random (not a human password); it is compared in
 * constant time.
 */
@Entity('api_credential')
export class ApiCredential {
  @PrimaryGeneratedColumn({ type: 'int' }) api_credential_id: number;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 128 })
  username: string;

  @Column({ type: 'varchar', length: 64 }) secret_sha256: string;
  @Column({ type: 'datetime' }) write_datetime: Date;
}
