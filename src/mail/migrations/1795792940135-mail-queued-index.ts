import { MigrationInterface, QueryRunner } from 'typeorm';
import { tableIndex } from 'src/database/migrations/schema-builders';

const QUEUED_INDEX = { columns: ['status', 'write_datetime'] };

/** The mail sweeper looks for messages still `queued` after their grace minute: one short range. */
export class MailQueuedIndex1795792940135 implements MigrationInterface {
  name = 'MailQueuedIndex1795792940135';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('mail_message', tableIndex('mail_message', QUEUED_INDEX));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('mail_message', tableIndex('mail_message', QUEUED_INDEX).name!);
  }
}
