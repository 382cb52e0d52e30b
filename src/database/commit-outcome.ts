/**
 * Driver codes of a COMMIT whose answer was lost: the statement reached (or may have reached)
 * the server, and the connection died or timed out before saying how it ended.
 */
const ANSWER_LOST_CODES = new Set([
  'PROTOCOL_SEQUENCE_TIMEOUT', // no answer within DB_STATEMENT_TIMEOUT_MS (the connection is destroyed)
  'PROTOCOL_CONNECTION_LOST',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
]);

/**
 * A write whose outcome cannot be known yet (issue 43, item 1): the caller must not be told
 * it failed. Answered 503 with `details.outcome: "unknown"` and `answer` as its message; a
 * retry with the same Idempotency-Key learns the outcome.
 */
export abstract class OutcomeUnknown extends Error {
  /** What the client is told (the message itself goes to the log only). */
  abstract readonly answer: string;
}

/** A COMMIT was sent and its answer lost: whether the transaction took effect is unknown. */
export class CommitOutcomeUnknown extends OutcomeUnknown {
  readonly answer =
    'The database did not confirm this write: it may or may not have been stored. Retry with the same Idempotency-Key to learn its outcome (without one, read before retrying).';

  constructor(override readonly cause: unknown) {
    super(`The COMMIT got no answer: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'CommitOutcomeUnknown';
  }
}

/** The error a failed COMMIT is reported as: `CommitOutcomeUnknown` when its answer was lost. */
export function commitFailure(error: unknown): unknown {
  const wrapped = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = wrapped?.code ?? wrapped?.driverError?.code;
  return typeof code === 'string' && ANSWER_LOST_CODES.has(code) ? new CommitOutcomeUnknown(error) : error;
}
