import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { isSqlite, isTextType, SQLITE_TEXT_COLLATION } from 'src/database/migrations/sqlite-text-collation';

/**
 * Idempotency keys are opaque and case-sensitive (Stripe's model, issue 43): `IDK-ABC` is not
 * `idk-abc`. The key column compares by bytes on both databases: SQLite's BINARY collation
 * (the table is rebuilt with its unique index), MariaDB's utf8mb4_bin. The column is listed in
 * `CASE_SENSITIVE_COLUMNS`, so folding text case leaves it alone.
 */
export class IdempotencyKeyCase1795792691255 implements MigrationInterface {
  name = 'IdempotencyKeyCase1795792691255';

  async up(queryRunner: QueryRunner): Promise<void> {
    await setKeyCollation(queryRunner, { sqlite: undefined, mysql: 'utf8mb4_bin' });
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await setKeyCollation(queryRunner, { sqlite: SQLITE_TEXT_COLLATION, mysql: 'utf8mb4_unicode_ci' });
  }
}

async function setKeyCollation(
  queryRunner: QueryRunner,
  collation: { sqlite: string | undefined; mysql: string },
): Promise<void> {
  if (isSqlite(queryRunner)) {
    // TypeORM reads no collation back and rebuilds the table: every text column is declared anew.
    const table = (await queryRunner.getTable('idempotency_key'))!;
    const changes = table.columns
      .filter((column) => isTextType(column.type))
      .map((oldColumn) => {
        const newColumn: TableColumn = oldColumn.clone();
        newColumn.collation = oldColumn.name === 'idempotency_key' ? collation.sqlite : SQLITE_TEXT_COLLATION;
        return { oldColumn, newColumn };
      });
    await queryRunner.changeColumns(table, changes);
    return;
  }
  await queryRunner.query(
    `ALTER TABLE \`idempotency_key\` MODIFY \`idempotency_key\` varchar(255) ` +
      `CHARACTER SET utf8mb4 COLLATE ${collation.mysql} NOT NULL`,
  );
}
