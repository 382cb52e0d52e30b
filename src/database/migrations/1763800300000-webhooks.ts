import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createTables,
  datetime,
  dropTables,
  generatedId,
  int,
  single,
  TableSpec,
  text,
  varchar,
} from './schema-builders';

/** Hooks, their delivery outbox and attempt log, and the stored shared token (issue 6). */
const TABLES: TableSpec[] = [
  {
    name: 'webhook',
    columns: [
      generatedId('webhook_id'),
      varchar('target_url', 2048),
      varchar('event', 64),
      varchar('nickname', 255, { nullable: true }),
      varchar('secret', 128),
      datetime('write_datetime'),
      datetime('deleted_datetime', { nullable: true }),
    ],
    indices: single('event'),
  },
  {
    name: 'webhook_delivery',
    columns: [
      generatedId('webhook_delivery_id'),
      int('webhook_id'),
      int('domain_event_id'),
      varchar('message_id', 40),
      varchar('context_str', 32),
      varchar('context_id', 64),
      varchar('event', 32),
      varchar('status', 16),
      int('attempts', { default: 0 }),
      datetime('next_attempt_datetime', { nullable: true }),
      datetime('locked_until_datetime', { nullable: true }),
      varchar('lease_token', 32, { nullable: true }),
      datetime('last_attempt_datetime', { nullable: true }),
      int('last_response_code', { nullable: true }),
      datetime('delivered_datetime', { nullable: true }),
      datetime('write_datetime'),
    ],
    indices: [
      { columns: ['status', 'next_attempt_datetime'] },
      { columns: ['webhook_id', 'webhook_delivery_id'] },
      { columns: ['webhook_id', 'domain_event_id'], unique: true },
      { columns: ['message_id'], unique: true },
      { columns: ['context_str', 'context_id'] },
      ...single('domain_event_id', 'write_datetime'),
    ],
  },
  {
    name: 'webhook_attempt',
    columns: [
      generatedId('webhook_attempt_id'),
      int('webhook_delivery_id'),
      int('attempt'),
      datetime('attempt_datetime'),
      int('response_code', { nullable: true }),
      text('response_body', { nullable: true }),
      varchar('error', 255, { nullable: true }),
    ],
    indices: [{ columns: ['webhook_delivery_id', 'attempt'] }],
  },
  {
    name: 'account_secret',
    columns: [{ ...varchar('name', 64), isPrimary: true }, varchar('value', 255)],
    indices: [],
  },
];

export class Webhooks1763800300000 implements MigrationInterface {
  name = 'Webhooks1763800300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}
