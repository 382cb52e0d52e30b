import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from 'src/database/migrations/schema-builders';

const VOID_INDEX = { columns: ['void_datetime'] };

/** Revenue analytics writes off the invoices voided in a month: one short range, not every invoice. */
export class InvoiceVoidIndex1795793400001 implements MigrationInterface {
  name = 'InvoiceVoidIndex1795793400001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('invoice', tableIndex('invoice', VOID_INDEX));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('invoice', tableIndex('invoice', VOID_INDEX).name!);
  }
}
