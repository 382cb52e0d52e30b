import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from 'src/database/migrations/schema-builders';

const STATUS_DUE_INDEX = { columns: ['invoice_status_str', 'due_date'] };

/**
 * Issue 42: open invoices past due across customers (`invoice_status_str:EQUALS:open-overdue`,
 * stored overdue or unpaid before today) are two ranges of this index, not a scan.
 */
export class InvoiceStatusDueIndex1795800000002 implements MigrationInterface {
  name = 'InvoiceStatusDueIndex1795800000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('invoice', tableIndex('invoice', STATUS_DUE_INDEX));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('invoice', tableIndex('invoice', STATUS_DUE_INDEX).name!);
  }
}
