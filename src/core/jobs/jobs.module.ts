import { BullModule } from '@nestjs/bull';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { BullJobQueue, JOBS_QUEUE } from './bull-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobQueue } from './job-queue';

/** Chooses the job driver from the configuration: Bull with REDIS_URL, else in-process. */
@Global()
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.redisUrl) {
      return {
        module: JobsModule,
        providers: [{ provide: JobQueue, useClass: InProcessJobQueue }],
        exports: [JobQueue],
      };
    }
    return {
      module: JobsModule,
      imports: [
        BullModule.forRoot({ url: config.redisUrl, prefix: `billing:${config.db.name}` }),
        BullModule.registerQueue({ name: JOBS_QUEUE }),
      ],
      providers: [{ provide: JobQueue, useClass: BullJobQueue }],
      exports: [JobQueue],
    };
  }
}
