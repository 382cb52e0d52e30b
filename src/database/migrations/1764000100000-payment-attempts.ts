import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createTables,
  datetime,
  decimal,
  dropTables,
  generatedId,
  int,
  single,
  TableSpec,
  text,
  varchar,
} from './schema-builders';

/** Payment attempts: a charge or refund recorded before the gateway is called (issue 18). */
export class PaymentAttempts1764000100000 implements MigrationInterface {
  name = 'PaymentAttempts1764000100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'payment_attempt',
    columns: [
      generatedId('payment_attempt_id'),
      varchar('reference', 64),
      varchar('kind', 10),
      varchar('status', 10),
      int('customer_id'),
      decimal('amount', 18, 2),
      int('parent_transaction_id', { nullable: true }),
      varchar('external_key', 255, { nullable: true }),
      text('applications'),
      text('request'),
      int('source_index'),
      int('transaction_id', { nullable: true }),
      datetime('created_datetime'),
      datetime('resolved_datetime', { nullable: true }),
    ],
    indices: [
      { columns: ['reference'], unique: true },
      { columns: ['external_key'], unique: true },
      ...single('status', 'customer_id', 'parent_transaction_id'),
    ],
  },
];
