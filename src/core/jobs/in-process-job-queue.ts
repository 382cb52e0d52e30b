import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { EnqueueOptions, JobOf, JobQueue } from './job-queue';
import { JobProcessors } from './job-processors';

type QueuedJob = JobOf<Record<string, unknown>> & { jobId?: string };

/**
 * Runs jobs on this process's event loop (embedded default: no Redis needed), whatever its
 * APP_ROLE (with no Redis no other process would), each name at most JOB_CONCURRENCY at
 * once as a Bull worker would, the rest waiting in order.
 */
@Injectable()
export class InProcessJobQueue extends JobQueue implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly pendingIds = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Due jobs waiting for a free lane of their name. */
  private readonly ready = new Map<string, QueuedJob[]>();
  private readonly activeByName = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly processors: JobProcessors,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'jobConcurrency'>,
  ) {
    super();
  }

  enqueue(name: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
    const { jobId } = options;
    if (jobId !== undefined) {
      if (this.pendingIds.has(jobId)) return Promise.resolve();
      this.pendingIds.add(jobId);
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const waiting = this.ready.get(name) ?? [];
      waiting.push({ name, data: payload, jobId });
      this.ready.set(name, waiting);
      this.startNext(name);
    }, options.delayMs ?? 0);
    this.timers.add(timer);
    return Promise.resolve();
  }

  counts(): Promise<Record<string, number>> {
    let waiting = this.timers.size;
    for (const jobs of this.ready.values()) waiting += jobs.length;
    return Promise.resolve({ waiting, active: this.running.size });
  }

  async drain(): Promise<void> {
    // A job waiting for a lane starts when a running one ends, so running > 0 covers it.
    while (this.running.size > 0 || this.timers.size > 0) {
      if (this.running.size > 0) await Promise.allSettled([...this.running]);
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /**
   * Before the database closes: queued jobs are dropped (their durable rows are picked up
   * again after a restart, e.g. by the webhook sweeper), running ones finish, so a webhook
   * delivery in flight is recorded as sent and not sent again.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.onApplicationShutdown();
    await Promise.allSettled([...this.running]);
  }

  onApplicationShutdown(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.ready.clear();
  }

  /** Starts the oldest waiting job of `name` if it has a free lane. */
  private startNext(name: string): void {
    const active = this.activeByName.get(name) ?? 0;
    const job = active < this.config.jobConcurrency ? this.ready.get(name)?.shift() : undefined;
    if (!job) return;
    if (job.jobId !== undefined) this.pendingIds.delete(job.jobId);
    this.activeByName.set(name, active + 1);
    const run = this.execute(job).finally(() => {
      this.running.delete(run);
      this.activeByName.set(name, (this.activeByName.get(name) ?? 1) - 1);
      if (!this.closed) this.startNext(name);
    });
    this.running.add(run);
  }

  private async execute(job: QueuedJob): Promise<void> {
    try {
      await this.processors.run(job);
      this.logger.debug(`Job "${job.name}" done`);
    } catch (error) {
      this.logger.error(`Job "${job.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
