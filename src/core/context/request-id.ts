import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

/** A client's own id is kept when it is short and plain (it goes into logs and a header). */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request's id: the client's `X-Request-Id` when acceptable, else a new UUID; echoed in
 * the `X-Request-Id` response header. The request logger calls this once per request.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The id given by `assignRequestId` (kept on the request as `id`), if any. */
export function requestIdOf(req: (IncomingMessage & { id?: unknown }) | undefined): string | undefined {
  return typeof req?.id === 'string' ? req.id : undefined;
}
