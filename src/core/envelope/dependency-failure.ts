/** What a 503 names: the dependency that did not answer. */
export type Dependency = 'database' | 'redis';

export const DEPENDENCY_MESSAGES: Record<Dependency, string> = {
  database: 'The database is not answering. Please retry shortly.',
  redis: 'Redis (the job queue) is not answering. Please retry shortly.',
};

/** Driver error codes of a database that is unreachable, stalled or busy (not of a bad statement). */
const DATABASE_CODES = new Set([
  'PROTOCOL_SEQUENCE_TIMEOUT', // mysql2: a statement got no answer within DB_STATEMENT_TIMEOUT_MS
  'PROTOCOL_CONNECTION_LOST',
  'ETIMEDOUT', // mysql2: no connection within DB_CONNECT_TIMEOUT_MS
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ER_STATEMENT_TIMEOUT',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'SQLITE_BUSY',
  'POOL_ACQUIRE_TIMEOUT', // no pooled connection came free within DB_CONNECT_TIMEOUT_MS
  'REQUEST_DEADLINE', // a unit of work would have started past REQUEST_TIMEOUT_MS
]);

/** ioredis messages of a Redis that is down or stalled. */
const REDIS_MESSAGES = [
  'Command timed out',
  "Stream isn't writeable",
  'Connection is closed',
  'Reached the max retries per request limit',
];

/**
 * The dependency whose outage `error` reports (it is answered 503, naming it), or null
 * for any other error. TypeORM wraps driver errors: the code is on the error or its
 * `driverError`.
 */
export function failedDependency(error: unknown): Dependency | null {
  if (!(error instanceof Error)) return null;
  const wrapped = error as Error & { code?: unknown; driverError?: { code?: unknown } };
  const code = wrapped.code ?? wrapped.driverError?.code;
  if (typeof code === 'string' && DATABASE_CODES.has(code)) return 'database';
  if (error.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.some((text) => error.message.includes(text))) {
    return 'redis';
  }
  return null;
}
