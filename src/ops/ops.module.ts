import { DynamicModule, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { AppConfig } from 'src/config/app-config';
import { HealthController } from './health/health.controller';
import { RedisPing } from './health/redis-ping';

/** What the people running the server need: health, metrics, logs, shutdown. */
@Module({})
export class OpsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const redisUrl = config.redisUrl;
    return {
      module: OpsModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController],
      providers: redisUrl ? [{ provide: RedisPing, useFactory: () => new RedisPing(redisUrl) }] : [],
    };
  }
}
