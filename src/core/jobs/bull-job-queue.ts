import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { EnqueueOptions, JobHandler, JobQueue } from './job-queue';

export const JOBS_QUEUE = 'jobs';

/** Jobs on a Bull queue in Redis, shared by every instance; workers process them. */
@Injectable()
export class BullJobQueue extends JobQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobHandler>();

  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  onModuleInit(): void {
    if (this.config.appRole === 'api') return;
    void this.queue.process('*', 4, (job: Job<Record<string, unknown>>) => this.execute(job));
  }

  register(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  async enqueue(name: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    await this.queue.add(name, payload, {
      delay: options.delayMs,
      jobId: options.jobId,
      removeOnComplete: true,
      removeOnFail: 1000,
    });
  }

  async counts(): Promise<Record<string, number>> {
    return { ...(await this.queue.getJobCounts()) };
  }

  async drain(): Promise<void> {
    for (;;) {
      const counts = await this.queue.getJobCounts();
      if (counts.waiting + counts.active + counts.delayed === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Before the database closes: Bull's close waits for this process' running jobs to finish. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }

  private async execute(job: Job<Record<string, unknown>>): Promise<void> {
    const handler = this.handlers.get(job.name);
    if (!handler) {
      this.logger.warn(`No handler for job "${job.name}"`);
      return;
    }
    await handler(job.data);
  }
}
