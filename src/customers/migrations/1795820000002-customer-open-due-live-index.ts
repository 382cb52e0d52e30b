import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from 'src/database/migrations/schema-builders';

const BEFORE = { columns: ['open_due_date'] };
const AFTER = { columns: ['open_due_date', 'customer_status_str', 'deleted_datetime'] };

/**
 * Issue 42: a `/customer/_count` by an overdue or current status read every matching row
 * for its stored status and whether it was deleted; with both in the index it is answered
 * from the index alone, and so is the count of all customers.
 */
export class CustomerOpenDueLiveIndex1795820000002 implements MigrationInterface {
  name = 'CustomerOpenDueLiveIndex1795820000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('customer', tableIndex('customer', AFTER));
    await queryRunner.dropIndex('customer', tableIndex('customer', BEFORE).name!);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('customer', tableIndex('customer', BEFORE));
    await queryRunner.dropIndex('customer', tableIndex('customer', AFTER).name!);
  }
}
