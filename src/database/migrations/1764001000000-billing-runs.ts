import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, datetime, dropTables, generatedId, int, TableSpec } from './schema-builders';

/**
 * One row per subscription cycle billed, written in the billing unit itself: the unique
 * key on (package_id, cycle_start) makes a second attempt at a cycle fail instead of
 * billing it twice.
 */
export class BillingRuns1764001000000 implements MigrationInterface {
  name = 'BillingRuns1764001000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'billing_cycle',
    columns: [
      generatedId('billing_cycle_id'),
      int('package_id'),
      datetime('cycle_start'),
      int('invoice_id', { nullable: true }),
      datetime('write_datetime'),
    ],
    indices: [{ columns: ['package_id', 'cycle_start'], unique: true }],
  },
];
