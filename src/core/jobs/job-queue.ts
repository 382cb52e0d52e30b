/** A unit of background work; its payload must be JSON. */
export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

export interface EnqueueOptions {
  delayMs?: number;
  /** Same id twice = one job (Bull dedupes; in-process ignores the repeat while pending). */
  jobId?: string;
}

/**
 * The job driver: Bull on Redis when REDIS_URL is set, in-process otherwise. Durable
 * state lives in the database; a queue only carries the nudge to act on it.
 */
export abstract class JobQueue {
  private readonly beforeJobHooks: Array<() => Promise<void>> = [];

  abstract register(name: string, handler: JobHandler): void;
  abstract enqueue(name: string, payload: Record<string, unknown>, options?: EnqueueOptions): Promise<void>;
  /** Jobs by state (`waiting`, `active`, `delayed`, ...) for the metrics. */
  abstract counts(): Promise<Record<string, number>>;
  /** Resolves when nothing is queued or running (tests, shutdown). */
  abstract drain(): Promise<void>;

  /** `hook` runs before each job this process runs (the shared test clock reads its moment). */
  beforeEachJob(hook: () => Promise<void>): void {
    this.beforeJobHooks.push(hook);
  }

  /** Runs a job's handler after the before-each hooks. */
  protected async runHandler(handler: JobHandler, payload: Record<string, unknown>): Promise<void> {
    for (const hook of this.beforeJobHooks) await hook();
    await handler(payload);
  }
}
