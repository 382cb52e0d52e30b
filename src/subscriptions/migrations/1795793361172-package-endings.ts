import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  boolean,
  createTables,
  datetime,
  dropTables,
  generatedId,
  int,
  single,
  TableSpec,
} from 'src/database/migrations/schema-builders';

/** The end of a cancelled subscription: its credit and final usage invoice, once (issue 37). */
export class PackageEndings1795793361172 implements MigrationInterface {
  name = 'PackageEndings1795793361172';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'package_ending',
    columns: [
      generatedId('package_ending_id'),
      int('package_id'),
      datetime('end_datetime'),
      boolean('cancel_prorate', false),
      datetime('usage_from', { nullable: true }),
      datetime('finished_datetime', { nullable: true }),
      int('invoice_id', { nullable: true }),
      datetime('write_datetime'),
    ],
    indices: [{ columns: ['package_id'], unique: true }, ...single('finished_datetime')],
  },
];
