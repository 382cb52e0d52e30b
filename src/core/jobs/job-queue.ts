import type { Job } from 'bull';

/** The one Bull queue every background job goes through (`@Processor(JOBS_QUEUE)`). */
export const JOBS_QUEUE = 'jobs';

/** What a job handler reads of its job: Bull hands it a whole `Job`, the in-process runner these. */
export type JobOf<P> = Pick<Job<P>, 'data' | 'name'>;

/** A unit of background work; its payload must be JSON. */
export type JobHandler = (job: JobOf<Record<string, unknown>>) => unknown;

export interface EnqueueOptions {
  delayMs?: number;
  /** Same id twice = one job (Bull dedupes; in-process ignores the repeat while pending). */
  jobId?: string;
}

/**
 * The job driver: Bull on Redis when REDIS_URL is set, in-process otherwise. Durable
 * state lives in the database; a queue only carries the nudge to act on it. The handlers
 * are `@Process` methods of `@Processor(JOBS_QUEUE)` providers (`job-processors.ts`), run
 * after the `@BeforeEachJob()` hooks.
 */
export abstract class JobQueue {
  abstract enqueue(name: string, payload: Record<string, unknown>, options?: EnqueueOptions): Promise<void>;
  /** Jobs by state (`waiting`, `active`, `delayed`, ...) for the metrics. */
  abstract counts(): Promise<Record<string, number>>;
  /** Resolves when nothing is queued or running (tests, shutdown). */
  abstract drain(): Promise<void>;
}
