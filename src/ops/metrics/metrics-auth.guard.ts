import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { runStrategy } from 'src/core/auth/basic-auth.guard';
import { BasicStrategy } from 'src/core/auth/basic.strategy';
import { ApiError } from 'src/core/envelope/api-error';

/**
 * `/metrics` takes `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set (so a
 * scraper needs no billing credential), else the API credential (HTTP Basic).
 */
@Injectable()
export class MetricsAuthGuard implements CanActivate {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly basic: BasicStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const token = this.config.metricsToken;
    if (token === undefined) {
      if (await runStrategy(this.basic, req)) return true;
      throw ApiError.unauthorized();
    }
    const given = Buffer.from(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    throw ApiError.unauthorized('Authentication failed: /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
  }
}
