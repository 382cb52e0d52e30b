import { ArgumentsHost, Catch, ExceptionFilter, UnauthorizedException } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError } from 'src/core/envelope/api-error';
import { esc } from './html';

/**
 * The dashboard answers its errors as a page, not the API's envelope: a 400 names the
 * field, and a 401 challenges for the API credential (`WWW-Authenticate: Basic`), so a
 * browser asks for it. Server errors stay with the global filter (logged, error id).
 */
@Catch(ApiError, UnauthorizedException)
export class DashboardErrorFilter implements ExceptionFilter {
  catch(exception: ApiError | UnauthorizedException, host: ArgumentsHost): void {
    // The credential guard (passport) refuses with Nest's UnauthorizedException.
    const error =
      exception instanceof ApiError
        ? exception
        : new ApiError(401, 'Sign in with the API credential to see the dashboard.');
    const res = host.switchToHttp().getResponse<Response>();
    if (error.code === 401) res.setHeader('WWW-Authenticate', 'Basic realm="Revenue dashboard", charset="UTF-8"');
    res
      .status(error.code)
      .type('html')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
          `<title>Revenue dashboard</title></head><body><h1>Revenue dashboard</h1><p role="alert">${esc(error.message)}</p>` +
          `<p><a href="/dashboard">Back to the dashboard</a></p></body></html>`,
      );
  }
}
