import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { DueWork } from './due-work';
import { DueWorkRegistry } from './due-work-registry';

/**
 * Triggers the registered due work through @nestjs/schedule: `billing-cron` work on
 * BILLING_CRON (in the account zone; off when it is empty), `interval` work every
 * `everyMs`. Only on instances whose APP_ROLE is `worker` or `all`. Each work also runs
 * once at start, so a night missed while no worker ran is caught up. A tick that finds its
 * work still running is skipped; a work only enqueues or claims, so no request waits on it.
 * With TEST_CLOCK=true nothing is triggered here, not even at start (DESIGN §3, §6 "Test
 * clock"): only moving the test clock runs due work, as of the moments it steps through.
 */
@Injectable()
export class DueWorkScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly mounted: Array<{ type: 'cron' | 'interval'; name: string }> = [];
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: DueWorkRegistry,
    private readonly clock: Clock,
    private readonly schedulerRegistry: SchedulerRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.appRole === 'api' || this.config.testClock) return;
    for (const work of this.registry.all()) {
      if (work.trigger.kind === 'billing-cron' && this.config.billingCron === '') continue;
      await this.tick(work);
      this.mount(work);
    }
  }

  /** Stops every trigger (shutdown; tests that count queries stop the background work). */
  stop(): void {
    for (const { type, name } of this.mounted.splice(0)) {
      if (!this.schedulerRegistry.doesExist(type, name)) continue;
      if (type === 'cron') this.schedulerRegistry.deleteCronJob(name);
      else this.schedulerRegistry.deleteInterval(name);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stop();
    await Promise.all(this.running.values());
  }

  private mount(work: DueWork): void {
    const name = `due-work:${work.name}`;
    if (work.trigger.kind === 'billing-cron') {
      const job = CronJob.from({
        cronTime: this.config.billingCron,
        timeZone: this.config.timezone,
        onTick: () => void this.tick(work),
        unrefTimeout: true,
      });
      this.schedulerRegistry.addCronJob(name, job);
      job.start();
      this.mounted.push({ type: 'cron', name });
    } else {
      const timer = setInterval(() => void this.tick(work), work.trigger.everyMs);
      timer.unref();
      this.schedulerRegistry.addInterval(name, timer);
      this.mounted.push({ type: 'interval', name });
    }
  }

  private tick(work: DueWork): Promise<void> {
    const current = this.running.get(work.name);
    if (current) return current;
    const run = this.registry.runOne(work, this.clock.now()).finally(() => this.running.delete(work.name));
    this.running.set(work.name, run);
    return run;
  }
}
