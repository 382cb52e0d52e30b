import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per account date the nightly job has claimed. The primary key makes the claim
 * atomic, so several instances (or a restart) never run the same night twice.
 */
@Entity('nightly_run')
export class NightlyRun {
  @PrimaryColumn({ type: 'varchar', length: 10 }) run_date: string;
  @Column({ type: 'datetime' }) started_datetime: Date;
  @Column({ type: 'datetime', nullable: true }) finished_datetime: Date | null;
}
