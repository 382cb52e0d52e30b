import {
  DataSource,
  DataSourceOptions,
  DefaultNamingStrategy,
  EntityManager,
  ObjectLiteral,
  SelectQueryBuilder,
} from 'typeorm';
import { MAX_MYSQL_GROUPS_IN_FLIGHT } from './mysql-group-commit';

/**
 * What differs between the databases, named for what a feature wants, so that no feature
 * file names a database type. SQLite has one writer: a transaction there holds the whole
 * database, so row locks are needless (and it has no `FOR UPDATE`). MySQL/MariaDB runs
 * writers side by side: what a write must read as it stands (a balance, a status) is read
 * under the row's lock.
 */

function isMysql(manager: EntityManager | DataSource): boolean {
  return (manager instanceof DataSource ? manager : manager.connection).options.type === 'mysql';
}

/** Whether the database locks rows for a writer (MySQL/MariaDB); SQLite has one writer, and needs none. */
export function locksRows(manager: EntityManager): boolean {
  return isMysql(manager);
}

const NAMING = new DefaultNamingStrategy();

/**
 * The tail of an `INSERT ... VALUES` into a table with a unique index on `keys`: where a
 * row's key is taken, `columns` are added to that row's instead of a second row made.
 */
export function addingOnConflict(manager: EntityManager, keys: string[], columns: string[]): string {
  return isMysql(manager)
    ? `ON DUPLICATE KEY UPDATE ${columns.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`
    : `ON CONFLICT(${keys.join(', ')}) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`;
}

/**
 * An index hint to put after a table (and its alias) in a FROM clause: MySQL/MariaDB then
 * reads `table` through its index on `columns`. A write's subquery is a locking read there;
 * on a small table the optimizer would scan the primary key and share-lock every row, which
 * deadlocks writers of unrelated customers. Through the index only the owner's range is
 * locked. Nothing on SQLite, which has one writer and no row locks.
 */
export function throughIndex(manager: EntityManager, table: string, columns: string[]): string {
  return isMysql(manager) ? `FORCE INDEX (\`${NAMING.indexName(table, columns)}\`)` : '';
}

/**
 * `qb` reading its rows under their write locks (`FOR UPDATE`) until the transaction ends,
 * where the database locks rows; unchanged on SQLite. Returns `qb`.
 */
export function lockForUpdate<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
  if (isMysql(qb.connection.manager)) qb.setLock('pessimistic_write');
  return qb;
}

/**
 * Those of `ids` (rows of `table` keyed by `idColumn`) no other transaction holds, now locked
 * for this one (`FOR UPDATE SKIP LOCKED`), in the order the database returns them; on SQLite,
 * whose one writer holds them all, every id.
 */
export async function lockFreeIds(
  manager: EntityManager,
  table: string,
  idColumn: string,
  ids: number[],
): Promise<number[]> {
  if (!isMysql(manager) || ids.length === 0) return ids;
  const rows: Array<Record<string, number | string>> = await manager.query(
    `SELECT ${idColumn} FROM ${table} WHERE ${idColumn} IN (${ids.map(() => '?').join(', ')}) FOR UPDATE SKIP LOCKED`,
    ids,
  );
  return rows.map((row) => Number(row[idColumn]));
}

/**
 * Units of work worth running at once for a long batch of writes: on MySQL/MariaDB one per
 * transaction the group commit keeps in flight; on SQLite two (one writes while the next
 * gathers its group; a third only waits for the one writer).
 */
export function writeUnitsInFlight(dataSource: DataSource): number {
  return isMysql(dataSource) ? MAX_MYSQL_GROUPS_IN_FLIGHT : 2;
}

/**
 * The file of a database that has one writer across every process using it (a SQLite file),
 * for work that must not run in two processes at once; null where the database arbitrates
 * writers itself with row locks (MySQL/MariaDB) or lives in one process only (`:memory:`).
 */
export function singleWriterFile(options: DataSourceOptions): string | null {
  if (options.type !== 'better-sqlite3') return null;
  const file = options.database;
  return file === ':memory:' || file === '' ? null : file;
}
