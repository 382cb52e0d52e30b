import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The portal's signing key, generated once and shared by every instance (when PORTAL_SESSION_SECRET is unset). */
@Entity('portal_key')
export class PortalKey {
  @PrimaryColumn({ type: 'varchar', length: 64 }) name: string;
  @Column({ type: 'varchar', length: 255 }) value: string;
}
