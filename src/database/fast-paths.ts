import { FAST_PATHS, FastPath } from 'src/config/app-config';

/**
 * The data layer's speed mechanisms, each of which a diagnostic setting (`DB_FAST_PATHS`,
 * README) can turn off on its own. Off, the code takes the plain path: TypeORM's own
 * calls and one transaction per unit of work. The contract of a unit of work
 * (unit-of-work.ts) holds either way; only the speed changes, so a suspected fast path can
 * be ruled out and each one's worth measured against the plain path (bench/). The list,
 * with what each one is, is FAST_PATHS (config/app-config.ts).
 *
 * The mechanisms on in this process. One setting per process, as the mechanisms are module
 * state (a transaction's deferred rows, the statement cache) shared by every data source in
 * it; the application sets it at start (app.module.ts), before its first query.
 */
let enabled = new Set<FastPath>(FAST_PATHS);

export function useFastPaths(on: ReadonlySet<FastPath>): void {
  enabled = new Set(on);
}

export function fastPath(name: FastPath): boolean {
  return enabled.has(name);
}
