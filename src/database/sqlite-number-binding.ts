import { DataSource, ObjectLiteral } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import { fastPath } from './fast-paths';

/**
 * better-sqlite3 binds every JS number as REAL; an integer is bound as a BigInt instead so
 * that it is an INTEGER, exactly like the literal it replaces (`'3' = 3` holds for a TEXT
 * column, `'3' = 3.0` does not).
 */
function sqliteNumber(value: number): number | bigint {
  return Number.isSafeInteger(value) ? BigInt(value) : value;
}

/**
 * One parameter as TypeORM's SQLite driver binds it (booleans as 1/0, dates as UTC text),
 * with numbers bound as bindNumbersOnSqlite binds them: for SQL written with `?` directly.
 */
export function sqliteParameter(value: unknown): unknown {
  if (typeof value === 'number') return sqliteNumber(value);
  if (typeof value === 'boolean') return +value;
  if (value instanceof Date) return DateUtils.mixedDateToUtcDatetimeString(value);
  return value;
}

/** A number smuggled past the SQLite driver's inlining so that it is bound instead. */
class BoundNumber {
  constructor(readonly value: number) {}
}

function box(value: unknown): unknown {
  return typeof value === 'number' ? new BoundNumber(value) : value;
}

/**
 * TypeORM's SQLite drivers write numeric query parameters into the SQL text
 * (`WHERE customer_id = 51234`) instead of binding them, so every read by id, and the
 * re-select after every insert, is a new statement that better-sqlite3 must prepare from
 * scratch and that evicts useful ones from TypeORM's small statement cache. This makes
 * numbers bound parameters like every other value: same semantics, stable SQL text.
 * MySQL binds numbers already and is left alone; so is SQLite with the mechanism off
 * (fast-paths.ts).
 */
export function bindNumbersOnSqlite(dataSource: DataSource): DataSource {
  if (dataSource.options.type !== 'better-sqlite3' || !fastPath('sqlite-number-binding')) return dataSource;
  const driver = dataSource.driver;
  const escape = driver.escapeQueryWithParameters.bind(driver);
  driver.escapeQueryWithParameters = (sql: string, parameters: ObjectLiteral): [string, unknown[]] => {
    if (!parameters) return escape(sql, parameters);
    const boxed: ObjectLiteral = {};
    for (const [key, value] of Object.entries(parameters)) {
      boxed[key] = Array.isArray(value) ? value.map(box) : box(value);
    }
    const [text, values] = escape(sql, boxed);
    return [text, values.map((v: unknown) => (v instanceof BoundNumber ? sqliteNumber(v.value) : v))];
  };
  return dataSource;
}
