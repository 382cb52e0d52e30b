import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { NightlyJob } from './nightly-job';

/** How often the timer looks whether a new account date has begun. */
const CHECK_INTERVAL_MS = 60_000;

/**
 * Starts the nightly job as soon as a new account date begins (by the Clock), and at
 * start-up when a night was missed while no worker ran. Off on API-only instances and when
 * BILLING_CRON is empty (billing timers disabled).
 */
@Injectable()
export class NightlyScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Nightly');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly job: NightlyJob,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.appRole === 'api' || this.config.billingCron === '') return;
    this.tick();
    this.timer = setInterval(() => this.tick(), CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.job
      .runDue()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.error(`Nightly run failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        this.running = null;
      });
  }
}
