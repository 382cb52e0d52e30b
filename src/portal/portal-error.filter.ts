import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { ApiError } from 'src/core/envelope/api-error';
import { PortalPages } from './portal-pages';

/** Hosted pages answer errors as HTML pages, never the API's JSON envelope. */
@Catch()
export class PortalErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Portal');

  constructor(private readonly pages: PortalPages) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (error instanceof ApiError && error.code < 500) {
      this.pages.error(res, error.code, error.message);
      return;
    }
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    this.pages.error(res, 500, 'The page could not be shown because of an error on our side. Please try again later.');
  }
}
