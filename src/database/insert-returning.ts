import { DataSource, EntityManager } from 'typeorm';

/** Per data source, once: whether its database answers `INSERT ... RETURNING`. */
const support = new WeakMap<DataSource, Promise<boolean>>();

/**
 * Whether the database answers `INSERT ... RETURNING <columns>`: SQLite does (3.35 and
 * later; better-sqlite3 bundles a newer one), MariaDB does from 10.5, MySQL does not.
 * MySQL and MariaDB are both reached as TypeORM's "mysql" type, whose idea of the version
 * drops the "-MariaDB" suffix, so the server is asked once.
 */
export function supportsInsertReturning(manager: EntityManager): Promise<boolean> {
  const connection = manager.connection;
  let answer = support.get(connection);
  if (!answer) {
    answer =
      connection.options.type === 'better-sqlite3'
        ? Promise.resolve(true)
        : manager
            .query<Array<{ version: string }>>('SELECT VERSION() AS version')
            .then(([row]) => isMariaDbWithReturning(row.version));
    support.set(connection, answer);
    // A failed question is asked again next time rather than remembered.
    answer.catch(() => support.delete(connection));
  }
  return answer;
}

/** `VERSION()` of a MariaDB 10.5 or later, e.g. "10.11.6-MariaDB-0+deb12u1" (MySQL says e.g. "8.4.3"). */
export function isMariaDbWithReturning(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.\d+-.*mariadb/i.exec(version);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 10 || (major === 10 && minor >= 5);
}
