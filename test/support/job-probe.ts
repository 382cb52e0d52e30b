import { Process, Processor } from '@nestjs/bull';
import { Injectable, Module } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { JobOf, JOBS_QUEUE } from 'src/core/jobs/job-queue';

export const PROBE_JOB = 'test.probe';

/** A job processor declared as the application's are: records each payload and the Clock's moment. */
@Injectable()
@Processor(JOBS_QUEUE)
export class JobProbe {
  readonly seen: Array<{ payload: Record<string, unknown>; at: Date }> = [];

  constructor(private readonly clock: Clock) {}

  @Process(PROBE_JOB)
  record(job: JobOf<Record<string, unknown>>): void {
    this.seen.push({ payload: job.data, at: this.clock.now() });
  }
}

/** Add to a test app (`createTestApp(env, { imports: [JobProbeModule] })`) to run probe jobs. */
@Module({ providers: [JobProbe] })
export class JobProbeModule {}
