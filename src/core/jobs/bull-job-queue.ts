import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { EnqueueOptions, JobQueue, JOBS_QUEUE } from './job-queue';
import { JobProcessors } from './job-processors';

/** After Redis failed to take a job, jobs are not offered to it for this long. */
const SKIP_AFTER_FAILURE_MS = 5_000;
/**
 * Jobs on a Bull queue in Redis, shared by every instance. A process whose APP_ROLE is
 * `worker` or `all` consumes them: each `@Process(name)` handler is bound to the queue with
 * JOB_CONCURRENCY lanes (`queue.process(name, concurrency, ...)`, as Bull's own explorer
 * would), and runs after the `@BeforeEachJob()` hooks; an `api` process only adds jobs.
 */
@Injectable()
export class BullJobQueue extends JobQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private redisDown = false;
  private skipUntil = 0;

  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly processors: JobProcessors,
  ) {
    super();
  }

  /** After JobProcessors found the handlers (a dependency: Nest starts it first). */
  onModuleInit(): void {
    // Bull reports a lost connection as 'error' events; it reconnects by itself.
    this.queue.on('error', (error: Error) => this.warnOnce(`Redis for the job queue: ${error.message}`));
    if (this.config.appRole === 'api') return;
    for (const name of this.processors.names()) {
      void this.queue.process(name, this.config.jobConcurrency, (job: Job<Record<string, unknown>>) =>
        this.execute(job),
      );
    }
  }

  /**
   * A job is only the nudge to act on state already in the database (a webhook delivery
   * row, a due settlement), which the sweepers find again. So while Redis does not answer
   * within REDIS_COMMAND_TIMEOUT_MS the nudge is dropped with a warning, and the request
   * that queued it (already committed) still succeeds; a late add is harmless (the job id
   * dedupes it, and the handler re-reads the row).
   */
  async enqueue(name: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    // Just failed: no request waits on Redis again for a while (the sweepers catch up).
    if (Date.now() < this.skipUntil) return; // stop-check: deliberate, paces a Redis outage's back-off in real time, not business time
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Command timed out')), this.config.timeouts.redisCommandMs);
    });
    try {
      await Promise.race([
        this.queue.add(name, payload, {
          delay: options.delayMs,
          jobId: options.jobId,
          removeOnComplete: true,
          removeOnFail: 1000,
        }),
        timeout,
      ]);
      this.redisDown = false;
    } catch (error) {
      this.skipUntil = Date.now() + SKIP_AFTER_FAILURE_MS; // stop-check: deliberate, the same back-off
      this.warnOnce(
        `Job "${name}" not queued (${error instanceof Error ? error.message : String(error)}): it waits in the database for the sweeper`,
      );
    } finally {
      clearTimeout(timer);
    }
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

  /** One warning per outage, not one per request. */
  private warnOnce(message: string): void {
    if (this.redisDown) return;
    this.redisDown = true;
    this.logger.warn(message);
  }

  private async execute(job: Job<Record<string, unknown>>): Promise<void> {
    await this.processors.run(job);
    this.logger.debug(`Job "${job.name}" ${String(job.id)} done`);
  }
}
