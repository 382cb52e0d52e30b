import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The test clock's moment (TEST_CLOCK=true), one row (`clock_id` 1) shared by every process
 * of a deployment (API, workers, the billing command line), so all read the same time.
 */
@Entity('test_clock')
export class TestClockRow {
  @PrimaryColumn({ type: 'int' }) clock_id: number;
  @Column({ type: 'datetime' }) now_datetime: Date;
}
