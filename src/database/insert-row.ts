import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertReturningId } from './raw-query';

/** The columns an INSERT may set, by property name, per entity (from TypeORM's metadata, read once). */
const insertableColumns = new WeakMap<EntityMetadata, Map<string, ColumnMetadata>>();

function columnsOf(metadata: EntityMetadata): Map<string, ColumnMetadata> {
  let columns = insertableColumns.get(metadata);
  if (!columns) {
    if (metadata.relations.length > 0 || metadata.embeddeds.length > 0) {
      throw new Error(`insertRow: ${metadata.name} has relations or embedded columns`);
    }
    columns = new Map(
      metadata.columns.filter((c) => c.isInsert && !c.isVirtualProperty).map((c) => [c.propertyName, c]),
    );
    insertableColumns.set(metadata, columns);
  }
  return columns;
}

/** An INSERT of one row: trusted SQL text and its named parameters. */
export interface InsertStatement {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * The INSERT of one row with only the given column values (the database's column
 * defaults, which the migrations keep equal to the entities', fill the rest); each value
 * goes through the driver's own conversion and the column's transformer and is bound,
 * exactly as TypeORM's insert does.
 */
export function insertStatement<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): InsertStatement {
  return insertRowsStatement(manager, entity, [values]);
}

/**
 * One INSERT of several rows, as insertStatement; the columns are those the first row
 * sets, and every row must set the same ones (`insertColumnsKey` tells which rows may
 * share a statement).
 */
export function insertRowsStatement<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): InsertStatement {
  const driver = manager.connection.driver;
  const metadata = manager.connection.getMetadata(entity);
  const columns = columnsOf(metadata);
  // As TypeORM's insert: properties that are not columns (request-only fields) are ignored.
  const properties = Object.keys(rows[0] ?? {}).filter(
    (p) => (rows[0] as ObjectLiteral)[p] !== undefined && columns.has(p),
  );
  if (properties.length === 0) throw new Error(`insertRow: no values for ${metadata.name}`);
  const params: Record<string, unknown> = {};
  const tuples = rows.map((row, r) => {
    const placeholders = properties.map((property, c) => {
      const value = (row as ObjectLiteral)[property] as unknown;
      if (value === undefined) throw new Error(`insertRow: row ${r + 1} of ${metadata.name} has no ${property}`);
      const name = `v${r * properties.length + c}`;
      params[name] = driver.preparePersistentValue(value, columns.get(property) as ColumnMetadata);
      return `:${name}`;
    });
    return `(${placeholders.join(', ')})`;
  });
  const names = properties.map((p) => driver.escape((columns.get(p) as ColumnMetadata).databaseName));
  return {
    sql: `INSERT INTO ${driver.escape(metadata.tableName)} (${names.join(', ')}) VALUES ${tuples.join(', ')}`,
    params,
  };
}

/** Which rows of an entity can share one multi-row INSERT: those that set the same columns. */
export function insertColumnsKey(values: ObjectLiteral): string {
  return Object.keys(values)
    .filter((p) => values[p] !== undefined)
    .join(',');
}

/**
 * Inserts one row (see insertStatement) and returns its generated id. Unlike
 * `manager.insert`, nothing is re-selected afterwards and no query builder is built: a
 * write here is one statement.
 */
export async function insertRow<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): Promise<number> {
  const { sql, params } = insertStatement(manager, entity, values);
  return insertReturningId(manager, sql, params);
}

/** Inserts rows that set the same columns (see insertRowsStatement), in one statement. */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): Promise<void> {
  const { sql, params } = insertRowsStatement(manager, entity, rows);
  await insertReturningId(manager, sql, params);
}

/** Per connection pool: whether one multi-row INSERT gets consecutive auto-increment ids. */
const consecutiveIds = new WeakMap<object, Promise<boolean>>();

/**
 * Inserts rows that set the same columns and returns their generated ids, in order.
 * One statement where its ids are known to be consecutive: always on SQLite (one writer,
 * the row id grows by one per row); on MySQL/MariaDB when `innodb_autoinc_lock_mode` is 0
 * or 1 (MariaDB's default), where a multi-row INSERT takes one block of ids. Under mode 2
 * (MySQL 8's default) ids of concurrent statements interleave, so rows go one at a time.
 */
export async function insertRowsReturningIds<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const isMysql = manager.connection.options.type === 'mysql';
  if (isMysql && !(await hasConsecutiveIds(manager))) {
    const ids: number[] = [];
    for (const row of rows) ids.push(await insertRow(manager, entity, row));
    return ids;
  }
  const { sql, params } = insertRowsStatement(manager, entity, rows);
  const reported = await insertReturningId(manager, sql, params);
  // mysql2 reports the first id of the statement, better-sqlite3 the last.
  const first = isMysql ? reported : reported - rows.length + 1;
  return rows.map((_, i) => first + i);
}

function hasConsecutiveIds(manager: EntityManager): Promise<boolean> {
  const key = manager.connection;
  let known = consecutiveIds.get(key);
  if (!known) {
    known = manager
      .query<Array<{ mode: number | string }>>('SELECT @@innodb_autoinc_lock_mode AS mode')
      .then((rows) => Number(rows[0]?.mode) < 2);
    consecutiveIds.set(key, known);
  }
  return known;
}
