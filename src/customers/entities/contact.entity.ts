import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DeletableRecord, customColumns } from 'src/database/base-record';

/** A contact ("user" on the wire) of a customer, who may log in to the portal. */
@Entity('user')
@customColumns(20)
export class Contact extends DeletableRecord {
  /** `custom_1..N`, added as columns by @customColumns. */
  [custom: `custom_${number}`]: string | null;

  @PrimaryGeneratedColumn({ type: 'int' }) user_id: number;

  @Index()
  @Column({ type: 'int' })
  customer_id: number;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 255 })
  username: string;

  /** argon2 hash; never returned. */
  @Column({ type: 'varchar', length: 255, nullable: true }) password_hash: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true }) name: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) first_name: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) middle_name_glob: string | null;
  @Index() @Column({ type: 'varchar', length: 128, nullable: true }) last_name: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) name_suffix: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) title: string | null;
  @Index() @Column({ type: 'varchar', length: 255, nullable: true }) email: string | null;
  @Index() @Column({ type: 'varchar', length: 64, nullable: true }) phone: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) mobile: string | null;
  @Index() @Column({ type: 'int', default: 1 }) user_type_id: number;
}
