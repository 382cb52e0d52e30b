import { QueryFailedError } from 'typeorm';
import { isUniqueViolation } from './unique-violation';

/**
 * Whether MySQL/MariaDB refused a transaction because of another one running at the same
 * moment, so that the same work started afresh may succeed: it was chosen as a deadlock
 * victim, a lock wait timed out, or a unique key it checked as free was taken by a
 * transaction that committed meanwhile (the fresh run then sees that row and answers as a
 * sequential request would).
 */
export function isConcurrencyConflict(error: unknown): boolean {
  if (isUniqueViolation(error)) return true;
  if (!(error instanceof QueryFailedError)) return false;
  const code = (error.driverError as { code?: string } | undefined)?.code;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}

/** A write that still conflicted with concurrent ones after its bounded retries. */
export class WriteConflict extends Error {
  constructor(override readonly cause: unknown) {
    super('The write conflicted with concurrent writes on every attempt.');
    this.name = 'WriteConflict';
  }
}
