import { DynamicModule, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from 'src/config/app-config';
import { HealthController } from './health/health.controller';
import { RedisPing } from './health/redis-ping';
import { pinoHttpOptions } from './logging/pino-http-options';
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
      imports: [
        TerminusModule.forRoot({ logger: false }),
        LoggerModule.forRoot({
          pinoHttp: pinoHttpOptions(config),
          // Its logger is the application's; its middleware (a pino-http child logger and an
          // AsyncLocalStorage per request) is replaced by RequestLogMiddleware, mounted below.
          forRoutes: [],
        }),
      ],
      controllers: [HealthController, MetricsController],
      providers: [
        HttpMetricsMiddleware,
        RequestLogMiddleware,
        MetricsAuthGuard,
        RuntimeMetrics,
        ...(redisUrl ? [{ provide: RedisPing, useFactory: () => new RedisPing(redisUrl) }] : []),
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestLogMiddleware, HttpMetricsMiddleware).forRoutes('*path');
  }
}
