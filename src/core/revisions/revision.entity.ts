import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Who changed what, when and from where (SPEC "Revision record"). */
@Entity('revision')
@Index(['context_str', 'context_id', 'revision_id'])
export class Revision {
  @PrimaryGeneratedColumn({ type: 'int' }) revision_id: number;
  @Column({ type: 'varchar', length: 32 }) context_str: string;
  @Column({ type: 'int' }) context_id: number;
  @Column({ type: 'int', nullable: true }) admin_id: number | null;
  @Column({ type: 'int', nullable: true }) user_id: number | null;
  /** The API credential that made the request. */
  @Column({ type: 'int', nullable: true }) integration_id: number | null;
  @Column({ type: 'datetime' }) revision_datetime: Date;
  @Column({ type: 'varchar', length: 45, nullable: true }) revision_ipaddr: string | null;
  @Column({ type: 'varchar', length: 255 }) revision_note: string;
  @Column({ type: 'varchar', length: 45, nullable: true }) on_behalf_addr: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) on_behalf_details: string | null;
}
