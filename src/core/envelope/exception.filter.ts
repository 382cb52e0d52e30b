import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { requestIdOf } from 'src/core/context/request-id';
import { runSyncInScope } from 'src/database/call-scope';
import { OutcomeUnknown } from 'src/database/commit-outcome';
import { WriteConflict } from 'src/database/write-conflict';
import { ApiError } from './api-error';
import { DEPENDENCY_MESSAGES, failedDependency } from './dependency-failure';
import { errorEnvelope } from './envelope';
import { noteRefusal } from './refusal-reason';
import { sendJson } from './send-json';

/**
 * Turns anything thrown into the error envelope. Only ApiError messages are trusted to
 * reach the client; framework errors are mapped to fixed wording, and anything else is
 * a 500 that names an error id (the details go to the log only).
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Error');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { code, message, details } = this.describe(exception, res.req);
    if (res.headersSent) return;
    if (code >= 400 && code < 500) noteRefusal(res, message);
    // The idempotency guard keeps the key of a write whose outcome is unknown until it is known.
    if (exception instanceof OutcomeUnknown) (res.locals as { outcomeUnknown?: boolean }).outcomeUnknown = true;
    sendJson(res, code, errorEnvelope(code, message, details));
  }

  private describe(
    exception: unknown,
    req: Response['req'],
  ): { code: number; message: string; details?: Record<string, unknown> } {
    if (exception instanceof ApiError) {
      return { code: exception.code, message: exception.message, details: exception.details };
    }
    if (exception instanceof ThrottlerException) {
      return { code: 429, message: 'Rate limit exceeded. Please slow down and retry after the Retry-After delay.' };
    }
    if (exception instanceof HttpException) {
      return this.describeHttp(exception);
    }
    if (exception instanceof WriteConflict) {
      // Still refused by the database for concurrent writes after the unit's bounded retries.
      return { code: 409, message: 'The request conflicted with concurrent requests on the same data; retry it.' };
    }
    if (exception instanceof OutcomeUnknown) {
      this.inRequest(req, () => this.logger.warn(`503, outcome unknown: ${exception.message}`));
      return { code: 503, message: exception.answer, details: { outcome: 'unknown' } };
    }
    const dependency = failedDependency(exception);
    if (dependency) {
      this.inRequest(req, () =>
        this.logger.warn(`503: ${exception instanceof Error ? exception.message : String(exception)}`),
      );
      return { code: 503, message: DEPENDENCY_MESSAGES[dependency] };
    }
    // The request id, so the client's report and the request's log lines meet.
    const errorId = requestIdOf(req) ?? randomUUID();
    this.inRequest(req, () =>
      this.logger.error(
        `[${errorId}] ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`,
      ),
    );
    return { code: 500, message: `An internal error occurred (error id ${errorId}).` };
  }

  /**
   * A line of this request's: it names the request (a read carries no call scope of its
   * own, RequestLogMiddleware). Only where a line is written: a 4xx switches nothing on.
   */
  private inRequest(req: Response['req'], log: () => void): void {
    runSyncInScope({ origin: req }, log);
  }

  /** Framework errors: routing, body parsing, auth. Their own text is never echoed. */
  private describeHttp(exception: HttpException): { code: number; message: string } {
    const status = exception.getStatus();
    const body = exception.getResponse() as { message?: unknown } | string;
    const cause = typeof body === 'string' ? body : typeof body.message === 'string' ? body.message : '';
    if (status === 404) return { code: 400, message: 'Invalid endpoint: no such resource or method.' };
    if (status === 401 || status === 403) return { code: 401, message: ApiError.unauthorized().message };
    if (status === 413) return { code: 400, message: 'Invalid request: the request body is too large.' };
    if (status === 400 && /JSON|Unexpected token|position/i.test(cause)) {
      return { code: 400, message: 'Invalid JSON in the request body.' };
    }
    if (status === 400) return { code: 400, message: 'Invalid request.' };
    if (status === 415) return { code: 400, message: 'Invalid request: the body must be JSON.' };
    return { code: 500, message: 'An internal error occurred.' };
  }
}
