import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { errorEnvelope } from 'src/core/envelope/envelope';
import { CallScope, currentScope } from 'src/database/call-scope';
import { IdempotencyStore, StoredAnswer } from './idempotency-store';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Answers that are not kept: a retry with the same key runs the request again. */
const NOT_KEPT = new Set([401, 409, 429]);

/** Headers of the first answer that a replay repeats (rate-limit headers are the retry's own). */
const REPLAYED_HEADERS = ['location', 'content-type'];

/**
 * `Idempotency-Key` on any POST (Stripe's model), for every route at once. A global
 * guard, after authentication (keys are per credential) and before the handler, so it
 * can answer without running it:
 * - first use: the key is claimed (a row in `idempotency_key`), the request runs, and the
 *   answer it writes (status, Location, envelope) is stored before it is sent;
 * - same key, same method, path and body: the stored answer, byte for byte, with
 *   `Idempotent-Replayed: true`, and nothing runs again;
 * - same key, another request: 400; while the first still runs: 409 (retry later).
 * Keys are kept 24 hours. 401, 409 and 429 answers are not kept (nothing ran).
 * Each unit of work the request commits marks the key `written` in its own transaction, so
 * after a 503 (the write rolled back, or its COMMIT unconfirmed) the key is settled once the
 * database answers: given back when nothing was written (a retry runs the request), else
 * kept with an answer saying so (issue 43, item 1).
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly store: IdempotencyStore) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: AuthenticatedUser }>();
    if (req.method !== 'POST') return true;
    const key = req.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || !req.user) return true;
    if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
      throw ApiError.badRequest('Header "Idempotency-Key" must be one value of 1 to 255 characters.');
    }
    const hash = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const claim = await this.store.claim(req.user.apiCredentialId, key, hash);
    const res = http.getResponse<Response>();
    switch (claim.kind) {
      case 'mismatch':
        throw ApiError.badRequest(
          'Header "Idempotency-Key": this key was already used with a different request (method, path or body); send a new key for a new request.',
        );
      case 'running':
        throw new ApiError(409, 'A request with this Idempotency-Key is still running; retry it once it has finished.');
      case 'replay':
        replay(res, claim.answer);
        // Answered: the exception Nest raises for `false` finds the response sent and writes nothing.
        return false;
      case 'claimed': {
        // Each unit of work the request commits marks the key written, in its transaction.
        const scope = currentScope();
        const id = claim.id;
        if (scope) scope.unitEnd = (m) => this.store.markWritten(m, id);
        this.keepAnswer(res, id, scope);
        return true;
      }
    }
  }

  /** Stores what the request answers (every answer goes through `res.end`), then sends it. */
  private keepAnswer(res: Response, id: number, scope: CallScope | undefined): void {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      if (scope) scope.unitEnd = undefined;
      const [chunk] = args;
      const body = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const answer = { code: res.statusCode, headers, body };
      if (res.statusCode === 503) {
        // The write did not happen, or may not have: the key is settled in the background once
        // the database answers (given back if nothing was written), and this answer goes now.
        const ifWritten = (res.locals as { outcomeUnknown?: boolean }).outcomeUnknown ? storedAfterUnknown() : answer;
        void this.store
          .settle(id, ifWritten)
          .catch((error: unknown) => this.logger.error(`Idempotency key ${id} not settled: ${String(error)}`));
        return end(...args);
      }
      const stored = NOT_KEPT.has(res.statusCode) ? this.store.release(id) : this.store.answer(id, answer);
      void stored
        .catch((error: unknown) => this.logger.error(`Idempotency key ${id} not stored: ${String(error)}`))
        .finally(() => end(...args));
      return res;
    }) as Response['end'];
  }
}

/**
 * The answer a retry gets when the first request's COMMIT went unconfirmed and it turned out
 * to have been stored: its own answer was never built, so the client is told to read.
 */
function storedAfterUnknown(): StoredAnswer {
  return {
    code: 409,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(
      errorEnvelope(
        409,
        'The first request with this Idempotency-Key was stored, but its answer was lost: read the object instead of sending it again.',
        { outcome: 'stored' },
      ),
    ),
  };
}

function replay(res: Response, answer: StoredAnswer): void {
  res.statusCode = answer.code;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}
