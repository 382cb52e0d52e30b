import { Controller, Get, Inject, Optional, ServiceUnavailableException } from '@nestjs/common';
import {
  HealthCheckResult,
  HealthCheckService,
  HealthIndicatorFunction,
  HealthIndicatorService,
} from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { Public } from 'src/core/auth/public.decorator';
import { ApiError } from 'src/core/envelope/api-error';
import { RedisPing } from './redis-ping';

/** A check that does not answer within this time counts as down. */
const CHECK_TIMEOUT_MS = 1500;

/**
 * Liveness and readiness for load balancers and orchestrators, outside `/api/v3` (they are
 * not part of the billing API) and without a credential. `/readyz` answers the error
 * envelope with code 503 naming what is down, with terminus' per-check details.
 */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    @Optional() @Inject(RedisPing) private readonly redis?: RedisPing,
  ) {}

  /** The process is alive and its event loop answers. */
  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Ready for traffic: database reachable and migrated, Redis reachable when configured. */
  @Get('readyz')
  async readyz(): Promise<HealthCheckResult> {
    const checks: HealthIndicatorFunction[] = [
      // A plain query rather than terminus' TypeOrmHealthIndicator, whose package probe fails under Jest.
      () =>
        this.indicators
          .check('database')
          .attempt(async () => {
            if (!this.dataSource.isInitialized) throw new Error('not connected');
            await this.dataSource.query('SELECT 1');
          })
          .withTimeout(CHECK_TIMEOUT_MS),
      () =>
        this.indicators
          .check('migrations')
          .attempt(async () => {
            if (await this.dataSource.showMigrations()) throw new Error('pending migrations');
          })
          .withTimeout(CHECK_TIMEOUT_MS),
    ];
    const redis = this.redis;
    if (redis) {
      checks.push(() =>
        this.indicators
          .check('redis')
          .attempt(() => redis.ping())
          .withTimeout(CHECK_TIMEOUT_MS),
      );
    }
    try {
      return await this.health.check(checks);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const result = error.getResponse() as HealthCheckResult;
      const down = Object.keys(result.error ?? {});
      throw new ApiError(503, `Not ready: ${down.join(', ')} down.`, { ...result });
    }
  }
}
