import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Connection, createConnection, RowDataPacket } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { DbConfig } from 'src/config/app-config';
import { buildDataSourceOptions } from 'src/database/data-source-options';
import { findEntities } from 'src/database/discovery';

/**
 * A scratch MariaDB database made by copying a migrated template, not by running every
 * migration again: on MariaDB the migrations take several seconds per test file, a copy of
 * the tables well under one. The template is named after a hash of the migration files, so a
 * changed migration builds a new one; it is built once, under a lock every test process takes,
 * and marked ready only after every migration ran.
 */
export async function createDatabaseFromTemplate(db: DbConfig, name: string): Promise<void> {
  const connection = await createConnection({
    host: db.host,
    port: db.port,
    user: db.user,
    password: db.password,
    multipleStatements: true,
  });
  // One lock for building and copying: a process testing another migration set (another
  // checkout) may drop this template, but never while it is being copied.
  await connection.query(`SELECT GET_LOCK('billing_test_template', 300)`);
  try {
    await copyDatabase(connection, await readyTemplate(connection, db), name);
  } finally {
    await connection.query(`SELECT RELEASE_LOCK('billing_test_template')`);
    await connection.end();
  }
}

const READY = '_template_ready';

async function readyTemplate(connection: Connection, db: DbConfig): Promise<string> {
  const template = `billing_tpl_${migrationsHash()}`;
  const [ready] = await connection.query<RowDataPacket[]>(
    'SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
    [template, READY],
  );
  if (ready.length > 0) return template;
  // Templates of other migration sets are of no more use; a half-built one is rebuilt.
  const [stale] = await connection.query<RowDataPacket[]>(
    `SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE 'billing\\_tpl\\_%'`,
  );
  for (const row of stale) await connection.query(`DROP DATABASE \`${row.name as string}\``);
  await connection.query(`CREATE DATABASE \`${template}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const dataSource = new DataSource(
    buildDataSourceOptions({ ...db, name: template, migrationsRun: false }, findEntities()),
  );
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
  await connection.query(`CREATE TABLE \`${template}\`.\`${READY}\` (id INT)`);
  return template;
}

/** Every table of `from` (schema, keys and rows) and its triggers into a new database `to`. */
async function copyDatabase(connection: Connection, from: string, to: string): Promise<void> {
  const [tables] = await connection.query<RowDataPacket[]>(
    `SELECT TABLE_NAME AS name FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' AND TABLE_NAME <> ?`,
    [from, READY],
  );
  const statements = [
    `CREATE DATABASE \`${to}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    `USE \`${to}\``,
    'SET FOREIGN_KEY_CHECKS = 0',
  ];
  for (const { name } of tables as { name: string }[]) {
    const [[created]] = await connection.query<RowDataPacket[]>(`SHOW CREATE TABLE \`${from}\`.\`${name}\``);
    statements.push(created['Create Table'] as string);
    statements.push(`INSERT INTO \`${name}\` SELECT * FROM \`${from}\`.\`${name}\``);
  }
  // Row triggers (rollups) after the rows, so copying the rows does not count them twice.
  const [triggers] = await connection.query<RowDataPacket[]>(
    'SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY TRIGGER_NAME',
    [from],
  );
  for (const { name } of triggers as { name: string }[]) {
    const [[created]] = await connection.query<RowDataPacket[]>(`SHOW CREATE TRIGGER \`${from}\`.\`${name}\``);
    statements.push(created['SQL Original Statement'] as string);
  }
  statements.push('SET FOREIGN_KEY_CHECKS = 1');
  await connection.query(statements.join(';\n'));
}

/** A hash of every migration file's text: a new or changed migration means a new template. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (dir.endsWith('migrations') || dir.endsWith('database')) hash.update(path).update(readFileSync(path));
    }
  };
  visit(join(__dirname, '..', '..', 'src'));
  return hash.digest('hex').slice(0, 16);
}
