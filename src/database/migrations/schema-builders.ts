import { DefaultNamingStrategy, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';
import { isSqlite, isTextType, SQLITE_TEXT_COLLATION } from './sqlite-text-collation';

/**
 * Portable table definitions for migrations: only the QueryRunner / Table API (no DDL
 * strings), so one migration runs on better-sqlite3 and MySQL/MariaDB alike.
 *
 * Spellings are chosen so both drivers read the result back exactly as the entity
 * metadata describes it:
 * - integers are `integer` (SQLite needs it for `PRIMARY KEY AUTOINCREMENT`; MySQL reads it back as `int`);
 * - booleans are `boolean` (MySQL stores `tinyint(1)`), JSON is `text` (what `simple-json` maps to);
 * - `@Index({ unique: true })` is a unique TableIndex (a UNIQUE INDEX on both drivers, never a UNIQUE constraint);
 * - the soft-delete column gets the precision TypeORM gives a @DeleteDateColumn on the driver.
 *
 * Index names are TypeORM's default names (`IDX_` + sha1 of `<table>_<sorted columns>`), computed
 * with a fixed DefaultNamingStrategy so a migration never changes with the app's configuration.
 * `npm run migration:check` proves the result equals the entities on both databases.
 */

const NAMING = new DefaultNamingStrategy();

/** The soft-delete column of DeletableRecord. */
const DELETE_DATE_COLUMN = 'deleted_datetime';

export interface IndexSpec {
  columns: string[];
  unique?: boolean;
}

export interface TableSpec {
  name: string;
  columns: TableColumnOptions[];
  indices: IndexSpec[];
}

/** Creates the tables in order. */
export async function createTables(queryRunner: QueryRunner, tables: TableSpec[]): Promise<void> {
  // TypeORM gives a @DeleteDateColumn the driver's default precision (MySQL: datetime(6); SQLite: none).
  const deleteDatePrecision = queryRunner.connection.driver.mappedDataTypes.deleteDatePrecision;
  // Text ignores case on SQLite as on MariaDB (sqlite-text-collation.ts).
  const textCollation = isSqlite(queryRunner) ? SQLITE_TEXT_COLLATION : undefined;
  for (const table of tables) {
    await queryRunner.createTable(
      new Table({
        name: table.name,
        columns: table.columns.map((column) => {
          if (column.name === DELETE_DATE_COLUMN) return { ...column, precision: deleteDatePrecision };
          return textCollation && isTextType(column.type) ? { ...column, collation: textCollation } : column;
        }),
        indices: table.indices.map((index) => tableIndex(table.name, index)),
      }),
    );
  }
}

/** Drops the tables in reverse order. */
export async function dropTables(queryRunner: QueryRunner, tables: TableSpec[]): Promise<void> {
  for (const table of [...tables].reverse()) {
    await queryRunner.dropTable(table.name, false, false, true);
  }
}

/** An index with TypeORM's default name, for adding to an existing table. */
export function tableIndex(tableName: string, index: IndexSpec): TableIndex {
  return new TableIndex({
    name: NAMING.indexName(tableName, index.columns),
    columnNames: index.columns,
    isUnique: index.unique ?? false,
  });
}

export type ColumnOptions = { nullable?: boolean };

export function generatedId(name: string): TableColumnOptions {
  return { name, type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' };
}

export function fixedId(name: string): TableColumnOptions {
  return { name, type: 'integer', isPrimary: true };
}

export function int(name: string, options: ColumnOptions & { default?: number } = {}): TableColumnOptions {
  return { name, type: 'integer', isNullable: options.nullable ?? false, default: options.default };
}

export function varchar(
  name: string,
  length: number,
  options: ColumnOptions & { default?: string } = {},
): TableColumnOptions {
  return {
    name,
    type: 'varchar',
    length: String(length),
    isNullable: options.nullable ?? false,
    default: options.default === undefined ? undefined : `'${options.default}'`,
  };
}

export function datetime(name: string, options: ColumnOptions = {}): TableColumnOptions {
  return { name, type: 'datetime', isNullable: options.nullable ?? false };
}

export function text(name: string, options: ColumnOptions = {}): TableColumnOptions {
  return { name, type: 'text', isNullable: options.nullable ?? false };
}

export function boolean(name: string, defaultValue: boolean): TableColumnOptions {
  return { name, type: 'boolean', isNullable: false, default: defaultValue ? '1' : '0' };
}

export function decimal(name: string, precision: number, scale: number): TableColumnOptions {
  return { name, type: 'decimal', precision, scale, isNullable: false };
}

/** token, external_key, write/mod stamps and the soft-delete column (DeletableRecord). */
export function deletableRecordColumns(): TableColumnOptions[] {
  return [
    varchar('token', 12),
    varchar('external_key', 255, { nullable: true }),
    datetime('write_datetime'),
    varchar('write_ipaddr', 45, { nullable: true }),
    datetime('mod_datetime'),
    varchar('mod_ipaddr', 45, { nullable: true }),
    datetime(DELETE_DATE_COLUMN, { nullable: true }),
  ];
}

export function deletableRecordIndices(): IndexSpec[] {
  return [
    { columns: ['token'], unique: true },
    { columns: ['external_key'], unique: true },
    { columns: ['write_datetime'] },
    { columns: ['mod_datetime'] },
  ];
}

export function customColumns(count: number): TableColumnOptions[] {
  return Array.from({ length: count }, (_, i) => varchar(`custom_${i + 1}`, 255, { nullable: true }));
}

export function customIndices(count: number): IndexSpec[] {
  return Array.from({ length: count }, (_, i) => ({ columns: [`custom_${i + 1}`] }));
}

export function single(...columns: string[]): IndexSpec[] {
  return columns.map((column) => ({ columns: [column] }));
}
