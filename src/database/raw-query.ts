import type { Database, Statement } from 'better-sqlite3';
import { EntityManager, ObjectLiteral, QueryFailedError } from 'typeorm';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import { fastPath } from './fast-paths';
import { executePrepared } from './mysql-prepared';

/**
 * Trusted SQL with named parameters (`:name`, `:...list`). The names become the driver's
 * placeholders exactly as in TypeORM's query builder (the same escaping function, so
 * dates, booleans and numbers bind the same way); values never reach the SQL text.
 *
 * On SQLite the statements run on TypeORM's own connection (the only one, so inside a
 * transaction they see and make its changes) through a cache of prepared statements,
 * without TypeORM's per-query wrapper; on MySQL as prepared statements (mysql-prepared.ts)
 * on the transaction's connection when there is one, or through `manager.query` when a
 * value has no exact binary binding.
 */

type Mode = 'objects' | 'arrays' | 'run';

/** Prepared statements per SQLite connection and mode (bounded: SQL text with `IN` lists varies). */
const statements = new WeakMap<Database, Record<Mode, Map<string, Statement<unknown[], unknown>>>>();
const MAX_STATEMENTS_PER_MODE = 200;

function bind(manager: EntityManager, sql: string, params: ObjectLiteral): [string, unknown[]] {
  return manager.connection.driver.escapeQueryWithParameters(sql, params) as [string, unknown[]];
}

/** Whether the database runs in this process (SQLite): a statement then costs no round trip. */
export function runsInProcess(manager: EntityManager): boolean {
  return manager.connection.options.type === 'better-sqlite3';
}

function sqliteStatement(manager: EntityManager, sql: string, mode: Mode): Statement<unknown[], unknown> | null {
  if (!runsInProcess(manager) || !fastPath('prepared-statements')) return null;
  const db = (manager.connection.driver as BetterSqlite3Driver).databaseConnection as Database;
  let byMode = statements.get(db);
  if (!byMode) {
    byMode = { objects: new Map(), arrays: new Map(), run: new Map() };
    statements.set(db, byMode);
  }
  const cache = byMode[mode];
  let statement = cache.get(sql);
  if (!statement) {
    statement = execute(sql, [], () => db.prepare<unknown[], unknown>(sql));
    if (mode === 'arrays') statement.raw(true);
    cache.set(sql, statement);
    if (cache.size > MAX_STATEMENTS_PER_MODE) cache.delete(cache.keys().next().value as string);
  }
  return statement;
}

/** Runs a statement; a failure is TypeORM's QueryFailedError, as through `manager.query` (unique-violation checks rely on it). */
function execute<R>(sql: string, values: unknown[], work: () => R): R {
  try {
    return work();
  } catch (error) {
    throw new QueryFailedError(sql, values, error as Error);
  }
}

/** The rows as objects keyed by column name. */
export async function queryRows<R extends ObjectLiteral>(
  manager: EntityManager,
  sql: string,
  params: ObjectLiteral = {},
): Promise<R[]> {
  const [text, values] = bind(manager, sql, params);
  const statement = sqliteStatement(manager, text, 'objects');
  if (statement) return execute(text, values, () => statement.all(...values) as R[]);
  return executePrepared<R[]>(manager, text, values, false) ?? manager.query<R[]>(text, values);
}

/**
 * The rows as arrays of the selected values in select order. For wide rows: on
 * better-sqlite3 an object with a property per column costs more than the query itself.
 */
export async function queryArrays(
  manager: EntityManager,
  sql: string,
  params: ObjectLiteral = {},
): Promise<unknown[][]> {
  const [text, values] = bind(manager, sql, params);
  const statement = sqliteStatement(manager, text, 'arrays');
  if (statement) return execute(text, values, () => statement.all(...values) as unknown[][]);
  const prepared = executePrepared<unknown[][]>(manager, text, values, true);
  if (prepared) return prepared;
  // mysql2 builds each row with its columns in select order (our aliases are never integer-like keys).
  const rows = await manager.query<ObjectLiteral[]>(text, values);
  return rows.map((row) => Object.values(row) as unknown[]);
}

/** Runs an INSERT and returns the generated id. */
export async function insertReturningId(manager: EntityManager, sql: string, params: ObjectLiteral): Promise<number> {
  const [text, values] = bind(manager, sql, params);
  return insertBoundReturningId(manager, text, values);
}

/**
 * As insertReturningId, for SQL already in the driver's placeholders (`?`) with its values
 * in order, each as the driver binds it: a statement of thousands of values skips the
 * rewrite of as many names (half of a 1,000-row INSERT's cost).
 */
export async function insertBoundReturningId(manager: EntityManager, text: string, values: unknown[]): Promise<number> {
  const statement = sqliteStatement(manager, text, 'run');
  // better-sqlite3 answers with the last row id, mysql2 with a result header
  // (through TypeORM on SQLite, when prepared statements are off: the row id itself).
  type Answer = { insertId?: number | bigint } | number | bigint | undefined;
  const answer: Answer = statement
    ? execute(text, values, () => statement.run(...values).lastInsertRowid)
    : await (executePrepared<Answer>(manager, text, values, false) ?? manager.query<Answer>(text, values));
  const id = typeof answer === 'object' ? answer.insertId : answer;
  if (id === undefined || id === null) throw new Error('insertReturningId: the driver returned no generated id');
  return Number(id);
}
