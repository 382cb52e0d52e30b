import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, datetime, dropTables, fixedId, TableSpec } from 'src/database/migrations/schema-builders';

/** The test clock's shared moment (one row), read by every process when TEST_CLOCK=true. */
export class TestClock1795806794928 implements MigrationInterface {
  name = 'TestClock1795806794928';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  { name: 'test_clock', columns: [fixedId('clock_id'), datetime('now_datetime')], indices: [] },
];
