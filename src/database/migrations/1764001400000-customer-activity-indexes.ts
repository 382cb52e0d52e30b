import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from './schema-builders';

/** Per table, the customer and the column the activity condition bounds. */
const ACTIVITY_INDEXES: ReadonlyArray<[table: string, columns: string[]]> = [
  ['invoice', ['customer_id', 'date']],
  ['quote', ['customer_id', 'date']],
  ['payment_transaction', ['customer_id', 'transaction_date']],
  ['package', ['customer_id', 'package_status_str']],
];

/**
 * Whether a customer had activity in the last 90 days (customer-activity.ts: the nightly
 * job's list, the status of an inactive-activity customer) is one EXISTS per table; with
 * these each is one short range of one customer's rows instead of a walk over all of them.
 */
export class CustomerActivityIndexes1764001400000 implements MigrationInterface {
  name = 'CustomerActivityIndexes1764001400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, columns] of ACTIVITY_INDEXES) {
      await queryRunner.createIndex(table, tableIndex(table, { columns }));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, columns] of [...ACTIVITY_INDEXES].reverse()) {
      await queryRunner.dropIndex(table, tableIndex(table, { columns }).name!);
    }
  }
}
