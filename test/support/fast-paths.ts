import { FastPath } from 'src/config/app-config';
import { loadConfig } from 'src/config/load-config';

/** Whether the run's DB_FAST_PATHS leaves these mechanisms on (all are, unless the run says). */
export function fastPathsOn(...names: FastPath[]): boolean {
  const on = loadConfig({ DB_FAST_PATHS: process.env.DB_FAST_PATHS }).db.fastPaths;
  return names.every((name) => on.has(name));
}

/**
 * `it` for a test of a mechanism's own behaviour (a group's shared COMMIT, say): registered
 * only while the mechanisms are on. The plain-path run (DB_FAST_PATHS=none, CI) has no such
 * behaviour to test and leaves it out, as a SQLite run leaves out a MariaDB-only test;
 * every test of what a client sees runs in both.
 */
export function itWithFastPaths(...names: FastPath[]): (name: string, test: () => Promise<void>) => void {
  return fastPathsOn(...names) ? (name, test) => it(name, test) : () => undefined;
}
