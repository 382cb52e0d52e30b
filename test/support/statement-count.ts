import type { Database } from 'better-sqlite3';
import { DataSource, EntityManager } from 'typeorm';
import * as rawQuery from 'src/database/raw-query';
import type { BetterSqlite3Driver } from 'typeorm/driver/better-sqlite3/BetterSqlite3Driver';
import type { MysqlQueryRunner } from 'typeorm/driver/mysql/MysqlQueryRunner';

type Target = Record<string, (...args: unknown[]) => unknown>;

/**
 * How many statements `work` sends through `manager`: counted where they reach the driver
 * (better-sqlite3 statement runs on SQLite; mysql2 `query` and `execute` on the
 * transaction's connection on MySQL), so TypeORM's queries and the raw prepared ones
 * (raw-query.ts) both count. `manager` must be a transaction's on MySQL.
 */
export async function countStatements(manager: EntityManager, work: () => Promise<void>): Promise<number> {
  let count = 0;
  const wrap = (target: Target, methods: string[]): (() => void) => {
    const originals = methods.map((name) => [name, target[name]] as const);
    for (const [name, original] of originals) {
      target[name] = function (this: unknown, ...args: unknown[]) {
        count++;
        return original.apply(this, args);
      };
    }
    return () => {
      for (const [name, original] of originals) target[name] = original;
    };
  };
  let restore: () => void;
  if (manager.connection.options.type === 'better-sqlite3') {
    const db = (manager.connection.driver as BetterSqlite3Driver).databaseConnection as Database;
    // Every statement, TypeORM's or a cached prepared one, runs through these (shared by all statements).
    const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as Target;
    restore = wrap(statement, ['all', 'get', 'run', 'iterate']);
  } else {
    const runner = manager.queryRunner as MysqlQueryRunner | undefined;
    if (!runner) throw new Error('countStatements: run it in a transaction on MySQL');
    restore = wrap((await runner.connect()) as Target, ['query', 'execute']);
  }
  try {
    await work();
  } finally {
    restore();
  }
  return count;
}

/** A running count of the statements this process sends, from `spyOnStatements`. */
export interface StatementSpy {
  /** Statements since the spy started or was last cleared. */
  count(): number;
  clear(): void;
  restore(): void;
}

/**
 * Counts every statement the process sends over a whole request, through TypeORM's query
 * runners and through the precomputed readers' raw queries (raw-query.ts): spies on both,
 * process-wide, so stop the due-work timers first. `restore` when done.
 */
export async function spyOnStatements(dataSource: DataSource): Promise<StatementSpy> {
  const runner = dataSource.createQueryRunner();
  const proto = Object.getPrototypeOf(runner) as { query: (...args: unknown[]) => Promise<unknown> };
  await runner.release();
  let count = 0;
  // A raw query that goes through TypeORM (prepared statements off, DB_FAST_PATHS) calls the
  // runner's query synchronously, inside its own call: one statement, counted once.
  let insideRaw = false;
  const query = proto.query;
  const spies = [
    jest.spyOn(proto, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (!insideRaw) count++;
      return query.apply(this, args);
    }),
    ...(['queryArrays', 'queryRows'] as const).map((name) => {
      const raw = rawQuery[name] as (...args: unknown[]) => Promise<never>;
      return jest.spyOn(rawQuery, name).mockImplementation((...args: unknown[]) => {
        count++;
        insideRaw = true;
        try {
          return raw(...args);
        } finally {
          insideRaw = false;
        }
      });
    }),
  ];
  return {
    count: () => count,
    clear: () => {
      count = 0;
    },
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}
