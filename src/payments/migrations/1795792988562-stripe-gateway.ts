import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import {
  createTables,
  datetime,
  decimal,
  dropTables,
  fixedId,
  int,
  single,
  TableSpec,
  varchar,
} from 'src/database/migrations/schema-builders';
import { foldTextCaseOnSqlite } from 'src/database/migrations/sqlite-text-collation';

/**
 * The Stripe gateway (issue 38): each customer's one Stripe Customer, the gateway events
 * handled (by id, so a redelivery changes nothing), the disputes recorded on payments, and
 * the last four digits Stripe tells of a tokenized method.
 */
export class StripeGateway1795792988562 implements MigrationInterface {
  name = 'StripeGateway1795792988562';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
    await queryRunner.addColumn('tokenized', new TableColumn(varchar('last4', 4, { nullable: true })));
    // SQLite rebuilds the table to add a column, dropping its text columns' NOCASE.
    await foldTextCaseOnSqlite(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('tokenized', 'last4');
    await foldTextCaseOnSqlite(queryRunner);
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'stripe_customer',
    columns: [fixedId('customer_id'), varchar('stripe_customer_id', 255), datetime('created_datetime')],
    indices: [],
  },
  {
    name: 'gateway_event',
    columns: [
      { ...varchar('event_id', 255), isPrimary: true },
      varchar('gateway', 32),
      varchar('event_type', 64),
      datetime('received_datetime'),
    ],
    indices: [],
  },
  {
    name: 'gateway_dispute',
    columns: [
      { ...varchar('dispute_id', 255), isPrimary: true },
      int('transaction_id'),
      decimal('amount', 18, 2),
      varchar('reason', 64),
      varchar('status', 64),
      datetime('created_datetime'),
    ],
    indices: single('transaction_id'),
  },
];
