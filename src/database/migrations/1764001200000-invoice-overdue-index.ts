import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from './schema-builders';

const OVERDUE_INDEX = { columns: ['customer_id', 'invoice_status_str', 'due_date'] };

/**
 * A customer's status is derived on every read from whether it has an open invoice past
 * its due date: this index answers that with one short range per open status.
 */
export class InvoiceOverdueIndex1764001200000 implements MigrationInterface {
  name = 'InvoiceOverdueIndex1764001200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('invoice', tableIndex('invoice', OVERDUE_INDEX));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('invoice', tableIndex('invoice', OVERDUE_INDEX).name!);
  }
}
