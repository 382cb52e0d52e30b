import { getQueueToken } from '@nestjs/bull';
import { DynamicModule, Global, Module } from '@nestjs/common';
import Bull from 'bull';
import { AppConfig } from 'src/config/app-config';
import { BullJobQueue } from './bull-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobProcessors } from './job-processors';
import { JobQueue, JOBS_QUEUE } from './job-queue';

/**
 * Chooses the job driver from the configuration: Bull with REDIS_URL, else in-process.
 * The Bull queue is built here, as `BullModule.registerQueue` builds it, and not through
 * it: registerQueue brings Bull's explorer, which would bind every `@Processor` in every
 * process (an APP_ROLE=api process must only add jobs) and without the before-each hooks.
 * BullJobQueue binds the same `@Process` handlers itself (JobProcessors).
 */
@Global()
@Module({})
export class JobsModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.redisUrl) {
      return {
        module: JobsModule,
        providers: [JobProcessors, { provide: JobQueue, useClass: InProcessJobQueue }],
        exports: [JobQueue],
      };
    }
    const { redisUrl } = config;
    return {
      module: JobsModule,
      providers: [
        JobProcessors,
        {
          provide: getQueueToken(JOBS_QUEUE),
          useFactory: () => new Bull(JOBS_QUEUE, redisUrl, { prefix: `billing:${config.db.name}` }),
        },
        { provide: JobQueue, useClass: BullJobQueue },
      ],
      exports: [JobQueue],
    };
  }
}
