import type { Database, Statement } from 'better-sqlite3';
import { EntityManager, ObjectLiteral } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';

/**
 * Runs trusted SQL with named parameters (`:name`, `:...list`) and returns the raw rows.
 * The names become the driver's placeholders exactly as in TypeORM's query builder (the
 * same escaping function, so dates, booleans and numbers bind the same way); values never
 * reach the SQL text.
 */
export async function queryRows<R extends ObjectLiteral>(
  manager: EntityManager,
  sql: string,
  params: ObjectLiteral = {},
): Promise<R[]> {
  const [text, values] = manager.connection.driver.escapeQueryWithParameters(sql, params);
  return manager.query<R[]>(text, values);
}

/** Prepared statements in array mode, per SQLite connection (bounded: SQL text with `IN` lists varies). */
const arrayStatements = new WeakMap<Database, Map<string, Statement<unknown[], unknown[]>>>();
const MAX_ARRAY_STATEMENTS = 200;

/**
 * Like `queryRows`, but each row is an array of the selected values in select order. On
 * SQLite the statement runs in better-sqlite3's array mode on TypeORM's own connection
 * (the one connection, so inside a transaction it reads what the transaction wrote): an
 * object with a property per column costs more than the query itself for wide rows.
 */
export async function queryArrays(
  manager: EntityManager,
  sql: string,
  params: ObjectLiteral = {},
): Promise<unknown[][]> {
  const driver = manager.connection.driver;
  const [text, values] = driver.escapeQueryWithParameters(sql, params) as [string, unknown[]];
  if (manager.connection.options.type === 'better-sqlite3') {
    return arrayStatement((driver as BetterSqlite3Driver).databaseConnection as Database, text).all(...values);
  }
  // mysql2 builds each row with its columns in select order (our aliases are never integer-like keys).
  const rows = await manager.query<ObjectLiteral[]>(text, values);
  return rows.map((row) => Object.values(row) as unknown[]);
}

function arrayStatement(db: Database, sql: string): Statement<unknown[], unknown[]> {
  let cache = arrayStatements.get(db);
  if (!cache) arrayStatements.set(db, (cache = new Map<string, Statement<unknown[], unknown[]>>()));
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare<unknown[], unknown[]>(sql).raw(true);
    cache.set(sql, statement);
    if (cache.size > MAX_ARRAY_STATEMENTS) cache.delete(cache.keys().next().value as string);
  }
  return statement;
}
