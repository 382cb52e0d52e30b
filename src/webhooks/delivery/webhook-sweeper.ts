import { Injectable } from '@nestjs/common';
import { DataSource, In, MoreThan } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { DueWork } from 'src/core/schedule/due-work';
import { DeliveryStatus, WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { WebhookDeliverer } from './webhook-deliverer';

const SWEEP_BATCH = 500;
/** Deliveries per queued job: one job's attempts share their claim and their writes. */
const KICK_CHUNK = 50;
const OPEN: DeliveryStatus[] = ['pending', 'failed'];

/**
 * Queues every delivery that is due (first attempts whose job was lost with a dead
 * process, and retries whose time has come by the Clock). Due work, checked every 2 s
 * (and at start); a due moment is a delivery's `next_attempt_datetime`. Tests move the
 * Clock and call `sweep()`, or move the test clock, instead of waiting.
 */
@Injectable()
@DueWork()
export class WebhookSweeper implements DueWork {
  readonly name = 'webhooks.sweep';
  readonly trigger = { kind: 'interval', everyMs: 2_000 } as const;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly deliverer: WebhookDeliverer,
  ) {}

  async runDue(): Promise<void> {
    await this.sweep();
  }

  async nextDueAfter(after: Date): Promise<Date | null> {
    const next = await this.dataSource.getRepository(WebhookDelivery).findOne({
      select: { webhook_delivery_id: true, next_attempt_datetime: true },
      where: { status: In(OPEN), next_attempt_datetime: MoreThan(after) },
      order: { next_attempt_datetime: 'ASC' },
    });
    return next?.next_attempt_datetime ?? null;
  }

  /** Queues the due deliveries; returns how many. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const due = await this.dataSource
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .select(['d.webhook_delivery_id', 'd.attempts'])
      .where('d.status IN (:...open)', { open: OPEN })
      .andWhere('d.next_attempt_datetime <= :now', { now })
      .andWhere('(d.locked_until_datetime IS NULL OR d.locked_until_datetime < :now)', { now })
      .orderBy('d.next_attempt_datetime', 'ASC')
      .limit(SWEEP_BATCH)
      .getMany();
    for (let at = 0; at < due.length; at += KICK_CHUNK) await this.deliverer.kickMany(due.slice(at, at + KICK_CHUNK));
    return due.length;
  }
}
