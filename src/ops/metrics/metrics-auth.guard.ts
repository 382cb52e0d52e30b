import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { BasicAuthenticator } from 'src/core/auth/basic-authenticator';
import { ApiError } from 'src/core/envelope/api-error';

/**
 * `/metrics` takes `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set (so a
 * scraper needs no billing credential), else the API credential (HTTP Basic).
 */
@Injectable()
export class MetricsAuthGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly basic: BasicAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const token = this.config.metricsToken;
    if (token === undefined) {
      await this.basic.authenticate(req, context.switchToHttp().getResponse<Response>());
      return true;
    }
    const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    throw ApiError.unauthorized('Authentication failed: /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
  }
}
