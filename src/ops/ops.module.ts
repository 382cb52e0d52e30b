import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { AppConfig } from 'src/config/app-config';
import { HealthController } from './health/health.controller';
import { RedisPing } from './health/redis-ping';
import { AppLogger } from './logging/app-logger';
import { createRootLogger, ROOT_LOGGER } from './logging/root-logger';
import { RequestLogMiddleware } from './logging/request-log.middleware';
import { HttpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { MetricsAuthGuard } from './metrics/metrics-auth.guard';
import { MetricsController } from './metrics/metrics.controller';
import { RuntimeMetrics } from './metrics/runtime-metrics';

/** What the people running the server need: health, metrics, logs, shutdown. */
@Module({})
export class OpsModule implements NestModule {
  static forRoot(config: AppConfig): DynamicModule {
    const redisUrl = config.redisUrl;
    return {
      module: OpsModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController, MetricsController],
      providers: [
        // The application's one pino logger, and Nest's logger over it (main.ts).
        { provide: ROOT_LOGGER, useValue: createRootLogger(config) },
        AppLogger,
        HttpMetricsMiddleware,
        RequestLogMiddleware,
        MetricsAuthGuard,
        RuntimeMetrics,
        ...(redisUrl ? [{ provide: RedisPing, useFactory: () => new RedisPing(redisUrl) }] : []),
      ],
      exports: [ROOT_LOGGER, AppLogger],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestLogMiddleware, HttpMetricsMiddleware).forRoutes('*path');
  }
}
