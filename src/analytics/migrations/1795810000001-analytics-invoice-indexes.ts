import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from 'src/database/migrations/schema-builders';

const INDEXES = [
  // receivables as of today: the open invoices, with every column the report reads.
  {
    columns: [
      'invoice_status_str',
      'due_date',
      'currency_id',
      'customer_id',
      'total',
      'date',
      'void_datetime',
      'deleted_datetime',
    ],
  },
  // dunning: a collection's invoice currency and total.
  { columns: ['invoice_id', 'currency_id', 'total'] },
];

/**
 * Two reports read invoices through these indexes instead of the wide rows: with 1.6
 * million invoices (216,000 open) `receivables` scanned the whole table (about 6 s) and
 * `dunning` fetched 49,000 rows (2.4 s on a loaded host, 0.3 s through the index).
 */
export class AnalyticsInvoiceIndexes1795810000001 implements MigrationInterface {
  name = 'AnalyticsInvoiceIndexes1795810000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const index of INDEXES) await queryRunner.createIndex('invoice', tableIndex('invoice', index));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of INDEXES) await queryRunner.dropIndex('invoice', tableIndex('invoice', index).name!);
  }
}
