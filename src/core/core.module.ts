import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { UnitOfWork } from 'src/database/unit-of-work';
import { ActionCatalog } from './actions/action-catalog';
import { BasicAuthenticator } from './auth/basic-authenticator';
import { BasicAuthGuard } from './auth/basic-auth.guard';
import { HttpBasicStrategy } from './auth/http-basic.strategy';
import { CredentialService } from './auth/credential.service';
import { LoginThrottle } from './auth/login-throttle';
import { Clock } from './clock/clock';
import { EnvelopeInterceptor } from './envelope/envelope.interceptor';
import { EnvelopeExceptionFilter } from './envelope/exception.filter';
import { EventRecorder } from './events/event-recorder';
import { MetricsRegistry } from './metrics/metrics-registry';
import { RevisionService } from './revisions/revision.service';
import { CredentialThrottlerGuard } from './throttle/credential-throttler.guard';
import { InternalRequestMarker, InternalRequestMiddleware } from './throttle/internal-request-marker';
import { RedisThrottlerStorage } from './throttle/redis-throttler.storage';
import { TeapotController } from './teapot.controller';
import { WireFormat } from './wire/wire-format';
import { IdempotencyGuard } from './idempotency/idempotency.guard';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiCredential } from './auth/api-credential.entity';
import { IdempotencyKey } from './idempotency/idempotency-key.entity';
import { Revision } from './revisions/revision.entity';
import { DomainEvent } from './events/domain-event.entity';

/**
 * Cross-cutting machinery every resource module uses. Guards run in order: auth, then rate
 * limit. Success envelopes are written by the interceptor, errors by the filter.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([ApiCredential, IdempotencyKey, Revision, DomainEvent]),
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: config.rateLimitPerMinute || 1 }],
        skipIf: () => config.rateLimitPerMinute === 0,
        storage: config.redisUrl
          ? new RedisThrottlerStorage(config.redisUrl, `billing:${config.db.name}`, config.timeouts)
          : undefined,
      }),
    }),
  ],
  controllers: [TeapotController],
  providers: [
    ActionCatalog,
    Clock,
    WireFormat,
    UnitOfWork,
    CredentialService,
    LoginThrottle,
    BasicAuthenticator,
    HttpBasicStrategy,
    RevisionService,
    EventRecorder,
    InternalRequestMarker,
    MetricsRegistry,
    { provide: APP_GUARD, useClass: BasicAuthGuard },
    { provide: APP_GUARD, useClass: CredentialThrottlerGuard },
    // After authentication: idempotency keys are per credential.
    { provide: APP_GUARD, useClass: IdempotencyGuard },
    IdempotencyStore,
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
  ],
  exports: [
    ActionCatalog,
    BasicAuthenticator,
    Clock,
    WireFormat,
    UnitOfWork,
    CredentialService,
    RevisionService,
    EventRecorder,
    InternalRequestMarker,
    MetricsRegistry,
    IdempotencyStore,
    ThrottlerModule,
  ],
})
export class CoreModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(InternalRequestMiddleware).forRoutes('*path');
  }
}
