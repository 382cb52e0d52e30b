import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DbConfig } from 'src/config/app-config';
import { loadConfig, loadDotEnv } from 'src/config/load-config';
import { buildDataSourceOptions } from 'src/database/data-source-options';
import { findEntities } from 'src/database/discovery';
import { sqliteTextColumnsNotFolded } from 'src/database/migrations/sqlite-text-collation';

/**
 * `npm run migration:check`: proves the migrations build exactly the schema the entities
 * describe, on the database type given by the environment (DB_TYPE).
 *
 * On a scratch database (SQLite `:memory:`, or a fresh `billing_migcheck_<random>` on MySQL
 * that is dropped afterwards) it runs every migration, asks TypeORM's schema builder which
 * queries `synchronize` would still run (there must be none), undoes every migration (no
 * table may remain), runs them all again and checks once more.
 * Exit code 0 when they match, 1 otherwise.
 */
async function main(): Promise<number> {
  loadDotEnv();
  const db = loadConfig().db;
  if (db.type === 'mysql') {
    const scratch = `billing_migcheck_${randomBytes(6).toString('hex')}`;
    const admin = new DataSource({
      type: 'mysql',
      host: db.host,
      port: db.port,
      username: db.user,
      password: db.password,
    });
    await admin.initialize();
    try {
      const [{ version }] = await admin.query<{ version: string }[]>('SELECT VERSION() AS version');
      await admin.query(`CREATE DATABASE \`${scratch}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      try {
        return await check({ ...db, name: scratch, migrationsRun: false }, `${version}, scratch database ${scratch}`, {
          mariadb: /mariadb/i.test(version),
        });
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS \`${scratch}\``);
      }
    } finally {
      await admin.destroy();
    }
  }
  return check({ ...db, path: ':memory:', migrationsRun: false }, 'sqlite, :memory:');
}

async function check(db: DbConfig, label: string, server: { mariadb: boolean } = { mariadb: false }): Promise<number> {
  let options = buildDataSourceOptions(db, findEntities());
  // TypeORM reads MariaDB's information_schema correctly only when told it is MariaDB (with
  // type 'mysql' it takes the COLUMN_DEFAULT "NULL" of every nullable column for the string 'NULL').
  if (server.mariadb && options.type === 'mysql') options = { ...options, type: 'mariadb' };
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  try {
    const entityTables = dataSource.entityMetadatas.map((metadata) => metadata.tableName);

    const applied = await dataSource.runMigrations();
    console.log(`applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
    if (!(await inSync(dataSource, entityTables, 'after the first run'))) return 1;

    for (let i = applied.length; i > 0; i--) await dataSource.undoLastMigration();
    if (!(await tablesAre(dataSource, [], 'after undoing every migration'))) return 1;
    console.log(`undid ${applied.length} migration(s): no table left`);

    const reapplied = await dataSource.runMigrations();
    console.log(`re-applied ${reapplied.length} migration(s)`);
    if (reapplied.length !== applied.length) {
      console.error(`expected ${applied.length} migrations to run again, ran ${reapplied.length}`);
      return 1;
    }
    if (!(await inSync(dataSource, entityTables, 'after down and up again'))) return 1;

    console.log(`migrations match entities (${db.type})`);
    console.log(`  checked on ${label}`);
    return 0;
  } finally {
    await dataSource.destroy();
  }
}

/**
 * True when the migrations made exactly the entities' tables and the schema builder has nothing
 * left to do; prints what differs otherwise.
 */
async function inSync(dataSource: DataSource, entityTables: string[], when: string): Promise<boolean> {
  if (!(await tablesAre(dataSource, entityTables, when))) return false;
  if (!(await textIgnoresCase(dataSource, when))) return false;
  const sqlInMemory = await dataSource.driver.createSchemaBuilder().log();
  if (sqlInMemory.upQueries.length === 0) return true;
  console.error(`schema differs from the entities ${when}; synchronize would run:`);
  for (const query of sqlInMemory.upQueries) {
    const parameters = query.parameters?.length ? ` -- ${JSON.stringify(query.parameters)}` : '';
    console.error(`  ${query.query};${parameters}`);
  }
  return false;
}

/**
 * On SQLite every text column must be COLLATE NOCASE (TypeORM cannot see a collation, so
 * a migration that rebuilds a table without folding it again would go unnoticed otherwise).
 */
async function textIgnoresCase(dataSource: DataSource, when: string): Promise<boolean> {
  if (dataSource.options.type !== 'better-sqlite3') return true;
  const queryRunner = dataSource.createQueryRunner();
  try {
    const notFolded = await sqliteTextColumnsNotFolded(queryRunner);
    if (notFolded.length === 0) return true;
    console.error(`text columns not COLLATE NOCASE ${when} (call foldTextCaseOnSqlite): ${notFolded.join(', ')}`);
    return false;
  } finally {
    await queryRunner.release();
  }
}

/** Compares the tables of the current database (besides the migrations log) with `expected`. */
async function tablesAre(dataSource: DataSource, expected: string[], when: string): Promise<boolean> {
  const ignored = dataSource.options.migrationsTableName ?? 'migrations';
  const queryRunner = dataSource.createQueryRunner();
  let actual: string[];
  try {
    // MySQL lists other databases' tables as `db.table`; SQLite lists its own `sqlite_*` tables.
    actual = (await queryRunner.getTables())
      .map((table) => table.name)
      .filter((name) => !name.includes('.') && !name.startsWith('sqlite_') && name !== ignored);
  } finally {
    await queryRunner.release();
  }
  const missing = expected.filter((name) => !actual.includes(name));
  const extra = actual.filter((name) => !expected.includes(name));
  if (missing.length === 0 && extra.length === 0) return true;
  if (missing.length > 0) console.error(`tables missing ${when}: ${missing.join(', ')}`);
  if (extra.length > 0) console.error(`tables not of any entity ${when}: ${extra.join(', ')}`);
  return false;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
