import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { AuthenticatedUser } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
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
      case 'claimed':
        this.keepAnswer(res, claim.id);
        return true;
    }
  }

  /** Stores what the request answers (every answer goes through `res.end`), then sends it. */
  private keepAnswer(res: Response, id: number): void {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      const [chunk] = args;
      const body = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = res.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const stored = NOT_KEPT.has(res.statusCode)
        ? this.store.release(id)
        : this.store.answer(id, { code: res.statusCode, headers, body });
      void stored
        .catch((error: unknown) => this.logger.error(`Idempotency key ${id} not stored: ${String(error)}`))
        .finally(() => end(...args));
      return res;
    }) as Response['end'];
  }
}

function replay(res: Response, answer: StoredAnswer): void {
  res.statusCode = answer.code;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Content-Length', Buffer.byteLength(answer.body));
  res.end(answer.body);
}
