import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { Observable, map } from 'rxjs';
import { ApiResult } from './api-result';
import { Envelope, okEnvelope } from './envelope';

/**
 * Wraps every controller result in the success envelope (DESIGN §4): an `ApiResult` sets
 * its code, headers and details; anything else is a 200 (`undefined` answers `true`).
 * Errors never come here: the exception filter writes them.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope> {
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result: unknown) => {
        if (result instanceof ApiResult) {
          res.status(result.code);
          for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
          return okEnvelope(result.code, result.response, result.details);
        }
        res.status(200);
        return okEnvelope(200, result === undefined ? true : result);
      }),
    );
  }
}
