import { Process, Processor } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobOf, JobQueue, JOBS_QUEUE } from 'src/core/jobs/job-queue';
import { DueWork } from 'src/core/schedule/due-work';
import { BillingRun } from './billing-run';
import { nextCycleStartAfter } from './due-subscriptions';

export const BILLING_RUN_JOB = 'billing.run';

/**
 * Billing runs as due work (DESIGN §6): on BILLING_CRON a tick only queues the run as of its
 * moment (the job id makes a repeated tick one job); a worker runs it. The next due moment
 * is the earliest next cycle start, so the test clock bills each cycle as of its own start.
 */
@Injectable()
@DueWork()
@Processor(JOBS_QUEUE)
export class BillingRunDueWork implements DueWork {
  readonly name = BILLING_RUN_JOB;
  readonly trigger = { kind: 'billing-cron' } as const;

  constructor(
    private readonly jobs: JobQueue,
    private readonly dataSource: DataSource,
    private readonly run: BillingRun,
  ) {}

  async runDue(asOf: Date): Promise<void> {
    const at = asOf.toISOString();
    await this.jobs.enqueue(BILLING_RUN_JOB, { asOf: at }, { jobId: `${BILLING_RUN_JOB}-${at}` });
  }

  nextDueAfter(after: Date): Promise<Date | null> {
    return nextCycleStartAfter(this.dataSource.manager, after);
  }

  /** The job `runDue` queued: the run as of its moment. */
  @Process(BILLING_RUN_JOB)
  async runAsOf(job: JobOf<{ asOf: string }>): Promise<void> {
    await this.run.run(new Date(String(job.data.asOf)));
  }
}
