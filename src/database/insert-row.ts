import { EntityManager, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { insertBoundReturningId, insertReturningId } from './raw-query';
import { sqliteParameter } from './sqlite-number-binding';

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

/** A column value already converted as the driver persists it (`preparedRow`): bound as it is. */
class PreparedValue {
  constructor(readonly value: unknown) {}
}

/**
 * The row with each column value converted now, as an INSERT of it would convert it (the
 * driver's conversion and the column's transformer: a `simple-json` payload becomes its
 * JSON text); properties that are not columns, undefined values and SQL functions are kept
 * as they are. For rows held until the end of a transaction (deferred-inserts.ts): a held
 * event payload is then one string instead of the object graph it was presented as, which
 * every young-generation collection until the commit would copy again.
 */
export function preparedRow<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  values: QueryDeepPartialEntity<T>,
): QueryDeepPartialEntity<T> {
  const driver = manager.connection.driver;
  const columns = columnsOf(manager.connection.getMetadata(entity));
  const row = values as ObjectLiteral;
  const prepared: ObjectLiteral = {};
  for (const property of Object.keys(row)) {
    const value = row[property] as unknown;
    const column = columns.get(property);
    prepared[property] =
      value === undefined || typeof value === 'function' || !column
        ? value
        : new PreparedValue(driver.preparePersistentValue(value, column));
  }
  return prepared as QueryDeepPartialEntity<T>;
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
  const params: Record<string, unknown> = {};
  let count = 0;
  const sql = buildInsert(manager, entity, rows, (value) => {
    const name = `v${count++}`;
    params[name] = value;
    return `:${name}`;
  });
  return { sql, params };
}

/** An INSERT in the driver's own placeholders (`?`), its values in order as the driver binds them. */
interface BoundInsert {
  sql: string;
  values: unknown[];
}

/**
 * insertRowsStatement with positional parameters, for the statements run here: TypeORM's
 * rewrite of named parameters (a regular expression over the SQL, a lookup per name) was
 * half the cost of a 1,000-row INSERT. Each value is what the driver's rewrite would bind:
 * as is on MySQL/MariaDB, through `sqliteParameter` on SQLite; a function is SQL text, as
 * in TypeORM. Null for any other driver (the caller takes the named path).
 */
function boundInsert<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): BoundInsert | null {
  const type = manager.connection.options.type;
  if (type !== 'mysql' && type !== 'better-sqlite3') return null;
  const values: unknown[] = [];
  const sql = buildInsert(manager, entity, rows, (value) => {
    if (typeof value === 'function') return (value as () => string)();
    values.push(type === 'mysql' ? value : sqliteParameter(value));
    return '?';
  });
  return { sql, values };
}

/**
 * The INSERT's SQL; `placeholder` takes each value, converted by the driver and the
 * column's transformer, and gives the text that stands for it, row by row.
 */
function buildInsert<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
  placeholder: (value: unknown) => string,
): string {
  const driver = manager.connection.driver;
  const metadata = manager.connection.getMetadata(entity);
  const columns = columnsOf(metadata);
  const first = (rows[0] ?? {}) as ObjectLiteral;
  // As TypeORM's insert: properties that are not columns (request-only fields) are ignored.
  const properties = Object.keys(first).filter((p) => first[p] !== undefined && columns.has(p));
  if (properties.length === 0) throw new Error(`insertRow: no values for ${metadata.name}`);
  const rowColumns = properties.map((p) => columns.get(p) as ColumnMetadata);
  const tuples = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as ObjectLiteral;
    let tuple = '(';
    for (let c = 0; c < properties.length; c++) {
      const value = row[properties[c]] as unknown;
      if (value === undefined) throw new Error(`insertRow: row ${r + 1} of ${metadata.name} has no ${properties[c]}`);
      const persisted: unknown =
        value instanceof PreparedValue ? value.value : driver.preparePersistentValue(value, rowColumns[c]);
      tuple += (c === 0 ? '' : ', ') + placeholder(persisted);
    }
    tuples[r] = `${tuple})`;
  }
  const names = rowColumns.map((column) => driver.escape(column.databaseName));
  return `INSERT INTO ${driver.escape(metadata.tableName)} (${names.join(', ')}) VALUES ${tuples.join(', ')}`;
}

/** Runs an INSERT of rows that set the same columns and returns the id the driver reports. */
function runInsert<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): Promise<number> {
  const bound = boundInsert(manager, entity, rows);
  if (bound) return insertBoundReturningId(manager, bound.sql, bound.values);
  const { sql, params } = insertRowsStatement(manager, entity, rows);
  return insertReturningId(manager, sql, params);
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
  return runInsert(manager, entity, [values]);
}

/** Inserts rows that set the same columns (see insertRowsStatement), in one statement. */
export async function insertRows<T extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<T>,
  rows: QueryDeepPartialEntity<T>[],
): Promise<void> {
  await runInsert(manager, entity, rows);
}

/** Per connection pool: whether one multi-row INSERT gets consecutive auto-increment ids. */
const consecutiveIds = new WeakMap<object, Promise<boolean>>();

/**
 * Inserts rows that set the same columns and returns their generated ids, in order, in one
 * statement where its ids are known to be consecutive:
 * - SQLite: one writer, and the row id of each row is the last one plus one.
 * - MySQL 8 / MariaDB 10.6+ (InnoDB): an `INSERT ... VALUES (...), (...)` is a "simple
 *   insert" (its row count is known before it runs), and InnoDB reserves all its values in
 *   one step under the table's auto-increment lock or mutex, in every
 *   `innodb_autoinc_lock_mode` (0, 1 and MySQL 8's default 2): a concurrent writer's ids
 *   come before or after the block, never inside it. Only "bulk inserts" (INSERT ... SELECT,
 *   LOAD DATA, row count unknown) take ids in growing blocks that interleave under mode 2;
 *   none is made here. The driver reports the block's first id (LAST_INSERT_ID()), and the
 *   rest follow by `auto_increment_increment`: TypeORM's own multi-row insert (MysqlDriver
 *   `createGeneratedMap`: insertId + index) relies on the same. A server with an increment
 *   other than 1 (a Galera cluster sets it to its size) gets one statement per row.
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
  const reported = await runInsert(manager, entity, rows);
  // mysql2 reports the first id of the statement, better-sqlite3 the last.
  const first = isMysql ? reported : reported - rows.length + 1;
  return rows.map((_, i) => first + i);
}

function hasConsecutiveIds(manager: EntityManager): Promise<boolean> {
  const key = manager.connection;
  let known = consecutiveIds.get(key);
  if (!known) {
    known = manager
      .query<Array<{ step: number | string }>>('SELECT @@auto_increment_increment AS step')
      .then((rows) => Number(rows[0]?.step) === 1);
    consecutiveIds.set(key, known);
  }
  return known;
}

/** Values one INSERT binds at most: under SQLite's 32,766 variables and MySQL's 65,535 placeholders. */
const MAX_VALUES_PER_INSERT = 30_000;

/**
 * Rows of one table in runs that can each be one INSERT: grouped by the columns they set
 * (`insertColumnsKey`), each group in order and cut so that no statement binds more values
 * than a driver takes. Each run comes with the rows' positions in `rows`.
 */
export function insertRuns<R extends ObjectLiteral>(rows: readonly R[]): Array<{ rows: R[]; at: number[] }> {
  const groups = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const key = insertColumnsKey(row);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  const runs: Array<{ rows: R[]; at: number[] }> = [];
  for (const [key, positions] of groups) {
    const size = Math.max(1, Math.floor(MAX_VALUES_PER_INSERT / Math.max(1, key.split(',').length)));
    for (let from = 0; from < positions.length; from += size) {
      const at = positions.slice(from, from + size);
      runs.push({ rows: at.map((i) => rows[i]), at });
    }
  }
  return runs;
}
