import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { WebhookDeliverer } from './webhook-deliverer';

const SWEEP_INTERVAL_MS = 2_000;
const SWEEP_BATCH = 500;

/**
 * Queues every delivery that is due (first attempts whose job was lost with a dead
 * process, and retries whose time has come by the Clock): at start and on a timer.
 * Tests move the Clock and call `sweep()` instead of waiting.
 */
@Injectable()
export class WebhookSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly deliverer: WebhookDeliverer,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.appRole === 'api') return;
    await this.sweepLogged();
    this.timer = setInterval(() => void this.sweepLogged(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Queues the due deliveries; returns how many. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const due = await this.dataSource
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .select(['d.webhook_delivery_id', 'd.attempts'])
      .where('d.status IN (:...open)', { open: ['pending', 'failed'] })
      .andWhere('d.next_attempt_datetime <= :now', { now })
      .andWhere('(d.locked_until_datetime IS NULL OR d.locked_until_datetime < :now)', { now })
      .orderBy('d.next_attempt_datetime', 'ASC')
      .limit(SWEEP_BATCH)
      .getMany();
    for (const delivery of due) await this.deliverer.kick(delivery.webhook_delivery_id, delivery.attempts);
    return due.length;
  }

  private async sweepLogged(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.logger.error(`Webhook sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
