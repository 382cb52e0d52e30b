import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { DbConfig, TimeoutConfig } from 'src/config/app-config';
import { findMigrations } from './discovery';

/** DB_CONNECT_TIMEOUT_MS and DB_STATEMENT_TIMEOUT_MS as shipped (the CLI uses them too). */
const DEFAULT_TIMEOUTS = { dbConnectMs: 5_000, dbStatementMs: 15_000 };

/**
 * The one options builder, shared by the app and the TypeORM CLI (ormconfig.ts). Migrations are
 * found where they live (`discovery.ts`); the app registers entities module by module
 * (`TypeOrmModule.forFeature`, `autoLoadEntities`), the tools pass `findEntities()`: the
 * database layer lists no feature.
 */
export function buildDataSourceOptions(
  db: DbConfig,
  entities: DataSourceOptions['entities'],
  timeouts: Pick<TimeoutConfig, 'dbConnectMs' | 'dbStatementMs'> = DEFAULT_TIMEOUTS,
): DataSourceOptions {
  const common = {
    entities,
    migrations: findMigrations(),
    migrationsRun: db.migrationsRun,
    synchronize: false,
    logging: false,
  } as const;
  if (db.type === 'mysql') {
    return {
      ...common,
      type: 'mysql',
      host: db.host,
      port: db.port,
      username: db.user,
      password: db.password,
      database: db.name,
      // Store and read datetimes as UTC regardless of the server's zone.
      timezone: 'Z',
      charset: 'utf8mb4_unicode_ci',
      // DECIMALs arrive as strings: never through a JS float.
      supportBigNumbers: true,
      bigNumberStrings: true,
      // mysql2 otherwise captures a stack trace for every query (to decorate errors): a
      // tenth of a simple read's CPU, for stacks no client ever sees.
      trace: false,
      // Prepared statements (database/mysql-prepared.ts) are kept per connection, the least
      // recently used closed beyond 100: 2,000 per process against MariaDB's default
      // server-wide cap of 16,382 (max_prepared_stmt_count), so several processes fit.
      extra: { connectionLimit: 20, decimalNumbers: false, maxPreparedStatements: 100 },
      // A stalled or unreachable server fails the request (503) instead of holding it: a
      // new connection gives up after connectTimeout, a statement after the statement timeout
      // or the request's deadline, and the wait for a pooled connection after the first of
      // connectTimeout and the deadline (mysql-timed-out-connections.ts).
      connectTimeout: timeouts.dbConnectMs,
      enableQueryTimeout: true,
      maxQueryExecutionTime: timeouts.dbStatementMs,
    };
  }
  if (db.path !== ':memory:') mkdirSync(dirname(db.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: db.path,
    prepareDatabase: (conn: { pragma(sql: string): unknown }) => {
      // WAL lets readers proceed while the single writer commits.
      conn.pragma('journal_mode = WAL');
      // A commit is on disk before the client hears of it. better-sqlite3 builds SQLite with
      // NORMAL as the default for a file already in WAL mode (every start after the first),
      // under which a power cut may take back an acknowledged payment. The price is one fsync
      // per commit (about 170 µs on the benchmark machine), shared by the writes of a group
      // commit.
      conn.pragma('synchronous = FULL');
      // Another process holding the write lock: wait at most this long, then SQLITE_BUSY (503).
      conn.pragma(`busy_timeout = ${timeouts.dbConnectMs}`);
    },
  };
}
