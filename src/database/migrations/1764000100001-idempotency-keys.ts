import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, datetime, dropTables, generatedId, int, TableSpec, text, varchar } from './schema-builders';

/** Idempotency keys of POST requests with their first answers (issue 18). */
export class IdempotencyKeys1764000100001 implements MigrationInterface {
  name = 'IdempotencyKeys1764000100001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'idempotency_key',
    columns: [
      generatedId('idempotency_key_id'),
      int('api_credential_id'),
      varchar('idempotency_key', 255),
      varchar('request_hash', 64),
      varchar('status', 10),
      int('response_code', { nullable: true }),
      text('response_headers', { nullable: true }),
      text('response_body', { nullable: true }),
      datetime('created_datetime'),
      datetime('expires_datetime'),
    ],
    indices: [{ columns: ['api_credential_id', 'idempotency_key'], unique: true }, { columns: ['expires_datetime'] }],
  },
];
