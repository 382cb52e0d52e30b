import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from 'src/database/migrations/schema-builders';

const BY_MONTH = { columns: ['currency_id', 'month', 'customer_id'] };
const BY_CUSTOMER = { columns: ['currency_id', 'customer_id', 'month', 'delta'] };

/**
 * The MRR report reads each customer's changes month by month: an index in that order,
 * holding the delta, answers it in one pass with no sort and no table row read (with
 * 100,000 subscriptions, over 200,000 rows). It replaces the index by month.
 */
export class MrrChangeCustomerIndex1795793400002 implements MigrationInterface {
  name = 'MrrChangeCustomerIndex1795793400002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('mrr_change', tableIndex('mrr_change', BY_CUSTOMER));
    await queryRunner.dropIndex('mrr_change', tableIndex('mrr_change', BY_MONTH).name!);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('mrr_change', tableIndex('mrr_change', BY_MONTH));
    await queryRunner.dropIndex('mrr_change', tableIndex('mrr_change', BY_CUSTOMER).name!);
  }
}
