import { MigrationInterface, QueryRunner } from 'typeorm';
import { foldTextCaseOnSqlite } from './sqlite-text-collation';

/**
 * SQLite text columns compare, sort and enforce uniqueness ignoring case, as MariaDB's
 * utf8mb4_unicode_ci does (DESIGN §4 Lists). Nothing to do on MySQL/MariaDB.
 */
export class TextIgnoresCase1764000500000 implements MigrationInterface {
  name = 'TextIgnoresCase1764000500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await foldTextCaseOnSqlite(queryRunner);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await foldTextCaseOnSqlite(queryRunner, undefined);
  }
}
