import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { datetime, varchar } from './schema-builders';

/**
 * What each invoice line bills (its origin: manual, recurring, usage, setup, proration,
 * trial) and the period it covers, written by the invoice issuer for subscriptions and
 * billing runs. Internal: not on the wire.
 */
export class InvoiceLineOrigin1764000200000 implements MigrationInterface {
  name = 'InvoiceLineOrigin1764000200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('invoice_line', COLUMNS.map((column) => new TableColumn(column)));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of [...COLUMNS].reverse()) await queryRunner.dropColumn('invoice_line', column.name);
  }
}

const COLUMNS = [
  varchar('line_origin', 16, { default: 'manual' }),
  datetime('period_from', { nullable: true }),
  datetime('period_to', { nullable: true }),
];
