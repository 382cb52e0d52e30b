import { QueryRunner, TableColumn } from 'typeorm';

/**
 * Text comparisons ignore case on both databases (DESIGN §4 Lists): MySQL/MariaDB by the
 * database's utf8mb4_unicode_ci, SQLite by declaring every text column COLLATE NOCASE, so
 * `=`, `<>`, ORDER BY and the unique indexes (external keys, usernames) fold case while
 * the indexes on those columns keep serving lookups. NOCASE folds ASCII letters only.
 *
 * TypeORM does not read a SQLite column's collation back, so a migration that rebuilds a
 * table (addColumn, changeColumn) drops it: such a migration calls `foldTextCaseOnSqlite`
 * for that table afterwards, and `npm run migration:check` refuses a text column without it.
 */
export const SQLITE_TEXT_COLLATION = 'NOCASE';

/**
 * `table.column` of the text columns that compare case-sensitively on both databases (SQLite's
 * BINARY, MariaDB's utf8mb4_bin), which folding leaves alone: opaque tokens, such as
 * `Idempotency-Key` values (Stripe's model: `IDK-ABC` and `idk-abc` are two keys).
 */
export const CASE_SENSITIVE_COLUMNS: ReadonlySet<string> = new Set(['idempotency_key.idempotency_key']);

const TEXT_TYPES = new Set(['varchar', 'text', 'character varying', 'nvarchar', 'char', 'clob']);

export function isSqlite(queryRunner: QueryRunner): boolean {
  return queryRunner.connection.driver.options.type === 'better-sqlite3';
}

export function isTextType(type: string): boolean {
  return TEXT_TYPES.has(type.toLowerCase());
}

/** The application's own tables (not SQLite's, not TypeORM's bookkeeping). */
export async function sqliteAppTables(queryRunner: QueryRunner): Promise<string[]> {
  const rows = (await queryRunner.query(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ` +
      `AND name NOT IN ('migrations', 'typeorm_metadata') ORDER BY name`,
  )) as { name: string }[];
  return rows.map((row) => row.name);
}

/**
 * Declares every text column with `collation`
 * (`undefined` = SQLite's BINARY default). Each table is rebuilt once, with its indexes,
 * which then order and compare by the new collation. A no-op on other databases.
 */
export async function foldTextCaseOnSqlite(
  queryRunner: QueryRunner,
  collation: string | undefined = SQLITE_TEXT_COLLATION,
): Promise<void> {
  if (!isSqlite(queryRunner)) return;
  // Folding rebuilds only the tables that need it (createTables already folds new ones).
  const names =
    collation === undefined
      ? await sqliteAppTables(queryRunner)
      : [...new Set((await sqliteTextColumnsNotFolded(queryRunner)).map((column) => column.split('.')[0]))];
  for (const table of await queryRunner.getTables(names)) {
    const changes = table.columns
      .filter((column) => isTextType(column.type) && !CASE_SENSITIVE_COLUMNS.has(`${table.name}.${column.name}`))
      .map((oldColumn) => {
        const newColumn: TableColumn = oldColumn.clone();
        newColumn.collation = collation;
        return { oldColumn, newColumn };
      });
    if (changes.length > 0) await queryRunner.changeColumns(table, changes);
  }
}

/**
 * `table.column` of every SQLite text column not declared with the case-folding collation
 * (besides the case-sensitive ones).
 */
export async function sqliteTextColumnsNotFolded(queryRunner: QueryRunner): Promise<string[]> {
  const missing: string[] = [];
  for (const name of await sqliteAppTables(queryRunner)) {
    const [{ sql }] = (await queryRunner.query(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, [
      name,
    ])) as { sql: string }[];
    // TypeORM writes one column definition per `"name" type ...`, separated by `, "`.
    const body = sql.slice(sql.indexOf('(') + 1);
    for (const definition of body.split(/,\s*(?=")/)) {
      const match = /^"(\w+)"\s+(\w+)/.exec(definition.trim());
      if (!match || !isTextType(match[2]) || CASE_SENSITIVE_COLUMNS.has(`${name}.${match[1]}`)) continue;
      if (!new RegExp(`COLLATE\\s+"?${SQLITE_TEXT_COLLATION}"?`, 'i').test(definition)) {
        missing.push(`${name}.${match[1]}`);
      }
    }
  }
  return missing;
}
