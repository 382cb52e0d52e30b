import { INestApplication } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { isUtf8 } from 'node:buffer';
import type { Server } from 'node:http';
import { APP_CONFIG, AppConfig } from './config/app-config';
import { answerClientErrorsInEnvelope } from './core/envelope/client-error-handler';
import { errorEnvelope } from './core/envelope/envelope';
import { sendJson } from './core/envelope/send-json';
import { asObject } from './core/validation/validate-body';
import { bodyShapeProblem } from './core/validation/body-shape';
import { serveOpenApi } from './ops/openapi/openapi-document';

/** Largest accepted JSON body; a bulk request of 25 entries fits comfortably. */
const BODY_LIMIT = '1mb';
/** The one route whose body is an array (DESIGN §6 Bulk). */
const ARRAY_BODY_PATH = /^\/api\/v3\/_bulk\/?$/;

/** Body-parser failures by their `type`: the status and wording of the envelope. */
const BODY_ERRORS: Record<string, [number, string]> = {
  'entity.too.large': [413, 'Invalid request: the request body is larger than 1 MB.'],
  'entity.verify.failed': [400, 'Invalid request: the request body is not valid UTF-8.'],
  'charset.unsupported': [400, 'Invalid request: the request body must be JSON in UTF-8.'],
  'encoding.unsupported': [400, 'Invalid request: the request body must not be compressed.'],
};

/** Refuses a body that is not UTF-8 (body-parser would replace the bad bytes silently). */
function verifyUtf8(_req: unknown, _res: unknown, raw: Buffer): void {
  if (!isUtf8(raw)) throw new Error('not UTF-8');
}

/** A gateway's webhook is signed over its exact bytes: they are kept beside the parsed body. */
function keepGatewayBody(req: Request, res: Response, raw: Buffer): void {
  verifyUtf8(req, res, raw);
  if (req.url.startsWith('/gateway/')) (req as Request & { rawBody?: Buffer }).rawBody = raw;
}

/**
 * HTTP setup shared by main.ts and the tests: path normalisation, JSON parsing whose
 * failures answer in the envelope, proxy awareness for client IPs, the OpenAPI document.
 */
export function configureApp(app: INestApplication): void {
  const http = app.getHttpAdapter().getInstance() as express.Express;
  // X-Forwarded-For is believed only from the proxies TRUST_PROXY names (none by default).
  http.set('trust proxy', app.get<symbol, AppConfig>(APP_CONFIG).trustProxy);
  http.disable('x-powered-by');
  // No ETags: a conditional GET would get a bodiless 304, and every response must be the
  // JSON envelope (DESIGN §4); it also spares a SHA-1 of every response body.
  http.set('etag', false);
  // A doubled slash in a path is tolerated (DESIGN §4).
  http.use((req: Request, _res: Response, next: NextFunction) => {
    const [path, query] = splitOnce(req.url, '?');
    if (path.includes('//')) req.url = path.replace(/\/{2,}/g, '/') + (query === undefined ? '' : `?${query}`);
    next();
  });
  // The hosted pages' forms (and only theirs: API bodies stay JSON, DESIGN §4).
  http.use(['/portal', '/r'], express.urlencoded({ extended: false, limit: BODY_LIMIT }));
  http.use(express.json({ limit: BODY_LIMIT, strict: false, type: () => true, verify: keepGatewayBody }));
  http.use((err: { type?: string; status?: number }, _req: Request, res: Response, next: NextFunction) => {
    if (!err) return next();
    const [status, message] = BODY_ERRORS[err.type ?? ''] ?? [400, 'Invalid JSON in the request body.'];
    sendJson(res, status, errorEnvelope(status, message));
  });
  // A PHP client's empty object arrives as `[]`: every body but _bulk's is an object.
  http.use((req: Request, _res: Response, next: NextFunction) => {
    if (Array.isArray(req.body) && !ARRAY_BODY_PATH.test(req.path)) req.body = asObject(req.body) ?? req.body;
    next();
  });
  // Depth, array, object and string limits, before anything walks the body (DESIGN §4).
  http.use((req: Request, res: Response, next: NextFunction) => {
    const problem = bodyShapeProblem(req.body);
    if (problem === null) return next();
    sendJson(res, 400, errorEnvelope(400, problem));
  });
  answerClientErrorsInEnvelope(app.getHttpServer() as Server);
  serveOpenApi(app);
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at === -1 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}
