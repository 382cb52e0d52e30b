import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EnqueueOptions, JobHandler, JobQueue } from './job-queue';

/** Runs jobs on this process's event loop (embedded default: no Redis needed). */
@Injectable()
export class InProcessJobQueue extends JobQueue implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobHandler>();
  private readonly pendingIds = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = new Set<Promise<void>>();
  private closed = false;

  register(name: string, handler: JobHandler): void {
    this.handlers.set(name, handler);
  }

  enqueue(name: string, payload: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (options.jobId !== undefined) {
      if (this.pendingIds.has(options.jobId)) return Promise.resolve();
      this.pendingIds.add(options.jobId);
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (options.jobId !== undefined) this.pendingIds.delete(options.jobId);
      this.track(this.execute(name, payload));
    }, options.delayMs ?? 0);
    this.timers.add(timer);
    return Promise.resolve();
  }

  counts(): Promise<Record<string, number>> {
    return Promise.resolve({ waiting: this.timers.size, active: this.running.size });
  }

  async drain(): Promise<void> {
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
  }

  private track(job: Promise<void>): void {
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }

  private async execute(name: string, payload: Record<string, unknown>): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler) {
      this.logger.warn(`No handler for job "${name}"`);
      return;
    }
    try {
      await this.runHandler(handler, payload);
      this.logger.debug(`Job "${name}" done`);
    } catch (error) {
      this.logger.error(`Job "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
