import { performance } from 'node:perf_hooks';
import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { assignRequestId } from 'src/core/context/request-id';
import { refusalOf } from 'src/core/envelope/refusal-reason';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { errorEnvelope } from 'src/core/envelope/envelope';
import { sendJson } from 'src/core/envelope/send-json';
import { openScope } from 'src/database/call-scope';
import { ROOT_LOGGER } from './root-logger';

/** A read that did not end within REQUEST_TIMEOUT_MS. */
const DEADLINE_MESSAGE =
  'The request did not finish in time (the database is slow or not answering). Please retry shortly.';

/** Methods that only read: they carry no call scope (below). */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The request's id (`X-Request-Id`), its scope and its one line once answered: request id,
 * credential username, route template, status, duration (`responseTime`, ms) and, for a
 * 4xx, its `reason`. At LOG_LEVEL=debug a line when it arrives too.
 *
 * It stands in for pino-http's middleware, which built a child logger per request and ran
 * it in an AsyncLocalStorage of its own. Here a write only enters the process' one call
 * scope, and a line logged inside it gets its `req` from there (the logger's mixin) when it
 * is written.
 */
@Injectable()
export class RequestLogMiddleware implements NestMiddleware {
  private readonly timeoutMs: number;

  constructor(
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.timeoutMs = config.requestTimeoutMs;
  }

  use(req: Request & { id?: string }, res: Response, next: NextFunction): void {
    req.id = assignRequestId(req, res);
    const logger = this.logger;
    if (logger.isLevelEnabled('debug')) logger.debug({ req }, 'request received');
    // The line is written at info: above that level nothing needs to know when the request ends.
    if (logger.isLevelEnabled('info')) {
      // A duration, not a moment: the monotonic timer, which neither the Clock nor a
      // wall-clock step moves.
      const started = performance.now();
      // 'close' comes once the answer is sent, or when the client goes away before it is.
      res.once('close', () => writeRequestLine(logger, req, res, Math.round(performance.now() - started)));
    }
    // A write's lines, inside its unit of work too, name it through the call scope. A read
    // opens none: the scope costs every promise of the process while one is open, and a read
    // writes no line of its own but this one and an error's (EnvelopeExceptionFilter names
    // the request itself).
    if (READ_METHODS.has(req.method)) {
      // A read changes nothing: past its deadline it is answered 503 whatever it waits for.
      const timer = setTimeout(() => {
        if (!res.headersSent) sendJson(res, 503, errorEnvelope(503, DEADLINE_MESSAGE));
      }, this.timeoutMs);
      res.once('close', () => clearTimeout(timer));
      return next();
    }
    // A write's units never start past its deadline, and its statements end by it (a 503
    // with its transaction rolled back: database/call-scope.ts `deadline`).
    res.once('close', openScope({ origin: req, deadline: performance.now() + this.timeoutMs }, next));
  }
}

function writeRequestLine(logger: Logger, req: Request, res: Response, responseTime: number): void {
  const route = req.route as { path?: string } | undefined;
  const failed = res.statusCode >= 500;
  // One literal, not a spread and more (see ARCHITECTURE.md, "Objects on hot paths"): this runs per request.
  const fields = {
    req,
    username: req.user?.username,
    // The route template is known only once the answer is on its way.
    route: route?.path ? `${req.baseUrl ?? ''}${route.path}` : undefined,
    res,
    err: failed ? new Error(`failed with status code ${res.statusCode}`) : undefined,
    // A 4xx says why (the client's message, never its body).
    reason: res.statusCode >= 400 && !failed ? refusalOf(res) : undefined,
    responseTime,
  };
  logger.info(fields, failed ? 'request errored' : 'request completed');
}
