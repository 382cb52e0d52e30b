import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, datetime, dropTables, generatedId, int, single, TableSpec, varchar } from './schema-builders';

/** Automatic collection and dunning of subscription invoices (issue 20, point 5). */
export class InvoiceCollections1764001100000 implements MigrationInterface {
  name = 'InvoiceCollections1764001100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'invoice_collection',
    columns: [
      generatedId('invoice_collection_id'),
      int('invoice_id'),
      int('package_id'),
      int('customer_id'),
      varchar('status', 10),
      datetime('next_attempt_datetime', { nullable: true }),
      int('failures'),
      datetime('first_failed_datetime', { nullable: true }),
      int('payment_attempt_id', { nullable: true }),
      datetime('created_datetime'),
      datetime('mod_datetime'),
    ],
    indices: [
      { columns: ['invoice_id'], unique: true },
      { columns: ['status', 'next_attempt_datetime'] },
      ...single('package_id'),
    ],
  },
];
