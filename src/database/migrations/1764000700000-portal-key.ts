import { MigrationInterface, QueryRunner } from 'typeorm';
import { createTables, dropTables, TableSpec, varchar } from './schema-builders';

/** The customer portal's stored signing key. */
export class PortalKey1764000700000 implements MigrationInterface {
  name = 'PortalKey1764000700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createTables(queryRunner, TABLES);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropTables(queryRunner, TABLES);
  }
}

const TABLES: TableSpec[] = [
  {
    name: 'portal_key',
    columns: [{ ...varchar('name', 64), isPrimary: true }, varchar('value', 255)],
    indices: [],
  },
];
