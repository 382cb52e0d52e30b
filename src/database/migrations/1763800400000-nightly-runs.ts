import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, datetime, dropTables, TableSpec } from './schema-builders';

/** The nightly job's claim per account date. */
export class NightlyRuns1763800400000 implements MigrationInterface {
  name = 'NightlyRuns1763800400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'nightly_run',
    columns: [
      { name: 'run_date', type: 'varchar', length: '10', isPrimary: true },
      datetime('started_datetime'),
      datetime('finished_datetime', { nullable: true }),
    ],
    indices: [],
  },
];
