import { InjectQueue } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { EnqueueOptions, JobHandler, JobQueue } from './job-queue';

export const JOBS_QUEUE = 'jobs';
/** After Redis failed to take a job, jobs are not offered to it for this long. */
const SKIP_AFTER_FAILURE_MS = 5_000;
/**
 * Jobs one worker runs at once. A job mostly waits (a receiver's answer, a commit), so at 4
 * a stream of 500 webhook events/s queued behind itself (p99 8.6 s); the in-process driver
 * runs every job at once. Beyond the connection pool (20) a job waits for a connection.
 */
const JOB_CONCURRENCY = 32;

/** Jobs on a Bull queue in Redis, shared by every instance; workers process them. */
@Injectable()
export class BullJobQueue extends JobQueue implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobHandler>();
  private redisDown = false;
  private skipUntil = 0;

  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  onModuleInit(): void {
    // Bull reports a lost connection as 'error' events; it reconnects by itself.
    this.queue.on('error', (error: Error) => this.warnOnce(`Redis for the job queue: ${error.message}`));
    if (this.config.appRole === 'api') return;
    void this.queue.process('*', JOB_CONCURRENCY, (job: Job<Record<string, unknown>>) => this.execute(job));
  }

  register(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
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
    const handler = this.handlers.get(job.name);
    if (!handler) {
      this.logger.warn(`No handler for job "${job.name}"`);
      return;
    }
    await this.runHandler(handler, job.data);
    this.logger.debug(`Job "${job.name}" ${String(job.id)} done`);
  }
}
