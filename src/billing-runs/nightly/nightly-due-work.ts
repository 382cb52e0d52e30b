import { Process, Processor } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { JobOf, JobQueue, JOBS_QUEUE } from 'src/core/jobs/job-queue';
import { DueWork } from 'src/core/schedule/due-work';
import { accountDate, nextAccountMidnight } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { NightlyJob } from './nightly-job';

export const NIGHTLY_JOB = 'billing.nightly';

/**
 * The nightly job as due work: due at each account midnight; as of a moment it queues the
 * run for that moment's account date (the job id and the night's claim make repeats no-ops).
 */
@Injectable()
@DueWork()
@Processor(JOBS_QUEUE)
export class NightlyDueWork implements DueWork {
  readonly name = NIGHTLY_JOB;
  readonly trigger = { kind: 'billing-cron' } as const;
  /** Runs for the account date of its moment: run late, past a midnight, it would skip a night. */
  readonly onTime = true;

  constructor(
    private readonly jobs: JobQueue,
    private readonly wire: WireFormat,
    private readonly job: NightlyJob,
  ) {}

  async runDue(asOf: Date): Promise<void> {
    const date = accountDate(asOf, this.wire.timezone);
    await this.jobs.enqueue(NIGHTLY_JOB, { date }, { jobId: `${NIGHTLY_JOB}-${date}` });
  }

  nextDueAfter(after: Date): Promise<Date> {
    return Promise.resolve(nextAccountMidnight(after, this.wire.timezone));
  }

  /** The job `runDue` queued: the night of its account date. */
  @Process(NIGHTLY_JOB)
  async runNight(job: JobOf<{ date: string }>): Promise<void> {
    await this.job.runFor(String(job.data.date));
  }
}
