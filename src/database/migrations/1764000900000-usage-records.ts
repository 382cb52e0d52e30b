import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, datetime, decimal, dropTables, generatedId, int, TableSpec, varchar } from './schema-builders';

/** Usage values pushed for metered subscription lines (`POST /usage`). */
export class UsageRecords1764000900000 implements MigrationInterface {
  name = 'UsageRecords1764000900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'usage_record',
    columns: [
      generatedId('usage_id'),
      int('line_item_id'),
      int('package_id'),
      int('customer_id'),
      decimal('usage_value', 18, 6),
      varchar('type', 3),
      varchar('options', 16, { default: '' }),
      datetime('from_datetime'),
      datetime('to_datetime'),
      varchar('external_key', 255, { nullable: true }),
      datetime('write_datetime'),
    ],
    indices: [
      { columns: ['line_item_id', 'from_datetime'] },
      { columns: ['package_id'] },
      { columns: ['customer_id'] },
      { columns: ['external_key'], unique: true },
    ],
  },
];
