import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { ApiError } from 'src/core/envelope/api-error';
import { JobQueue } from 'src/core/jobs/job-queue';
import { DueWorkRegistry } from 'src/core/schedule/due-work-registry';
import { Clock } from './clock';

/**
 * The test clock (DESIGN §6): moves the Clock forward and runs, in order and as of each
 * due moment on the way, everything registered as due work, waiting for the jobs each
 * moment queued before taking the next step, so work sees the time it was due at. With
 * TEST_CLOCK=true the Clock is frozen at start-up and moves only through here.
 */
@Injectable()
export class TestClock implements OnModuleInit {
  /** One move at a time: a second request waits for the first to finish its steps. */
  private moving: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly registry: DueWorkRegistry,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    if (this.config.testClock) this.clock.set(this.clock.now());
  }

  now(): Date {
    return this.clock.now();
  }

  /** Moves to `target` (never back: 400), stepping through every due moment before it. */
  advanceTo(target: Date): Promise<Date> {
    const move = this.moving.then(() => this.stepTo(target));
    this.moving = move.catch(() => undefined);
    return move;
  }

  private async stepTo(target: Date): Promise<Date> {
    if (target.getTime() < this.clock.now().getTime())
      throw ApiError.badRequest('Field "datetime": the clock only moves forward, never back.');
    for (;;) {
      const next = await this.registry.nextDueAfter(this.clock.now());
      if (!next || next.getTime() > target.getTime()) break;
      await this.runAsOf(next);
    }
    await this.runAsOf(target);
    return this.clock.now();
  }

  private async runAsOf(at: Date): Promise<void> {
    this.clock.set(at);
    await this.registry.runAllDue(this.clock.now());
    await this.jobs.drain();
  }
}
