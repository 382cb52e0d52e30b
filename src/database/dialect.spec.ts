import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { lockForUpdate, locksRows, singleWriterFile, writeUnitsInFlight } from './dialect';
import { MAX_MYSQL_GROUPS_IN_FLIGHT } from './mysql-group-commit';

/** Built, never connected: the SQL a driver would send, without a server. */
const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
const mysql = new DataSource({ type: 'mysql', host: '127.0.0.1', username: 'nobody', database: 'none' });

const lockedRead = (ds: DataSource): string =>
  lockForUpdate(ds.manager.createQueryBuilder().select('t.id').from('thing', 't').where('t.id = 1')).getQuery();

describe('dialect', () => {
  it('reads under the row lock where the database locks rows (MySQL/MariaDB), and plainly on SQLite', () => {
    expect(lockedRead(mysql)).toMatch(/ FOR UPDATE$/);
    expect(lockedRead(sqlite)).not.toMatch(/FOR UPDATE/);
    expect(locksRows(mysql.manager)).toBe(true);
    expect(locksRows(sqlite.manager)).toBe(false);
  });

  it('runs as many write units at once as the database writes usefully', () => {
    expect(writeUnitsInFlight(mysql)).toBe(MAX_MYSQL_GROUPS_IN_FLIGHT);
    expect(writeUnitsInFlight(sqlite)).toBe(2);
  });

  it('names the file of a database with one writer across processes, and none elsewhere', () => {
    expect(singleWriterFile({ type: 'better-sqlite3', database: 'data/billing.sqlite' })).toBe('data/billing.sqlite');
    expect(singleWriterFile({ type: 'better-sqlite3', database: ':memory:' })).toBeNull();
    expect(singleWriterFile(mysql.options)).toBeNull();
  });

  it('is the only place outside database/ and config/ that names a database type', () => {
    const src = join(__dirname, '..');
    // The composition root may: the migration check is a tool, and the CLI refuses
    // `--workers` on SQLite before any application loads.
    const allowed = new Set(['check-migrations.ts', 'billing-cli.ts']);
    const naming = /options\.type|\.isMysql|['"](mysql|better-sqlite3|sqlite)['"]/;
    const offenders = tsFiles(src)
      .map((file) => relative(src, file))
      .filter((file) => !/^(database|config)\//.test(file) && !file.endsWith('.spec.ts') && !allowed.has(file))
      .filter((file) => naming.test(readFileSync(join(src, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
