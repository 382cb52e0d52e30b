import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { JobQueue } from 'src/core/jobs/job-queue';
import { randomToken } from 'src/core/refs/random-token';
import { UnitOfWork } from 'src/database/unit-of-work';
import { WebhookAttempt } from 'src/webhooks/entities/webhook-attempt.entity';
import { DeliveryStatus, WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { Webhook } from 'src/webhooks/entities/webhook.entity';
import { deliveryEnvelope } from './delivery-envelope';
import { PostOutcome, postPinned } from './pinned-post';
import { retryDelayAfter } from './retry-schedule';
import { HostResolver, systemResolver, TargetRefusedError, vetTarget } from './target-url-guard';
import { SharedTokenService } from './shared-token.service';
import { signWebhook } from './webhook-signature';

export const DELIVER_JOB = 'webhook.deliver';
/** DESIGN §6: no answer within 15 s is a failure. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** Longer than the timeout: a lease only outlives its attempt when the instance died. */
const LEASE_MS = 60_000;
/** Enough of a non-200 answer to see what went wrong, without storing a whole page. */
export const MAX_LOGGED_BODY_CHARS = 4096;

/**
 * Makes one attempt of one delivery. The row is claimed first with a conditional
 * UPDATE (due, not delivered, lease free), so however many instances or jobs race for
 * it, exactly one POSTs; the outcome is written back only under the same lease.
 */
@Injectable()
export class WebhookDeliverer implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  /** Replaceable in tests, to point names at chosen addresses. */
  resolver: HostResolver = systemResolver;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly sharedToken: SharedTokenService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(DELIVER_JOB, async (payload) => {
      try {
        await this.attempt(Number(payload.deliveryId));
      } catch (error) {
        // The lease runs out and the sweeper tries again; the job itself must not fail.
        this.logger.error(
          `Delivery ${String(payload.deliveryId)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  }

  /** Queues an attempt; the job id makes repeats of the same attempt one job. */
  kick(deliveryId: number, attempts: number): Promise<void> {
    return this.jobs.enqueue(DELIVER_JOB, { deliveryId }, { jobId: `webhook-delivery-${deliveryId}-${attempts}` });
  }

  async attempt(deliveryId: number): Promise<void> {
    const lease = await this.claim(deliveryId);
    if (!lease) return;
    const m = this.dataSource.manager;
    const delivery = await m.findOneByOrFail(WebhookDelivery, { webhook_delivery_id: deliveryId });
    const hook = await m.findOne(Webhook, { where: { webhook_id: delivery.webhook_id }, withDeleted: true });
    if (!hook || hook.deleted_datetime) {
      await this.finish(delivery, lease, { statusCode: null, body: null, error: 'the hook was deleted' }, true);
      return;
    }
    const event = await m.findOneByOrFail(DomainEvent, { domain_event_id: delivery.domain_event_id });
    const outcome = await this.send(hook, delivery, event.data);
    await this.finish(delivery, lease, outcome, false);
  }

  private async claim(deliveryId: number): Promise<string | null> {
    const now = this.clock.now();
    const lease = randomToken(24);
    const result = await this.uow.run((tx) =>
      tx.manager
        .createQueryBuilder()
        .update(WebhookDelivery)
        .set({ lease_token: lease, locked_until_datetime: new Date(now.getTime() + LEASE_MS) })
        .where('webhook_delivery_id = :deliveryId', { deliveryId })
        .andWhere('status IN (:...open)', { open: ['pending', 'failed'] })
        .andWhere('next_attempt_datetime <= :now', { now })
        .andWhere('(locked_until_datetime IS NULL OR locked_until_datetime < :now)', { now })
        .execute(),
    );
    return result.affected === 1 ? lease : null;
  }

  private async send(hook: Webhook, delivery: WebhookDelivery, data: Record<string, unknown>): Promise<PostOutcome> {
    const body = JSON.stringify(deliveryEnvelope(delivery, data, await this.sharedToken.token()));
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'X-Service-Key': await this.sharedToken.token(),
      'X-Service-Source': new URL(this.config.publicUrl).hostname,
      'webhook-id': delivery.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(hook.secret, delivery.message_id, timestamp, body),
    };
    try {
      // Checked again on every attempt: DNS may have changed since the hook was made.
      const target = await vetTarget(
        hook.target_url,
        { allowPrivate: this.config.webhookAllowPrivateTargets },
        this.resolver,
      );
      return await postPinned(target, body, headers, {
        timeoutMs: DELIVERY_TIMEOUT_MS,
        maxBodyChars: MAX_LOGGED_BODY_CHARS,
      });
    } catch (error) {
      if (error instanceof TargetRefusedError)
        return { statusCode: null, body: null, error: `target refused: ${error.message}` };
      throw error;
    }
  }

  /** Writes the attempt and the delivery's next state, only while the lease is still ours. */
  private async finish(delivery: WebhookDelivery, lease: string, outcome: PostOutcome, giveUp: boolean): Promise<void> {
    const now = this.clock.now();
    const attempt = delivery.attempts + 1;
    const delivered = outcome.statusCode === 200;
    const delay = delivered || giveUp ? null : retryDelayAfter(attempt);
    const status: DeliveryStatus = delivered ? 'delivered' : delay === null ? 'given_up' : 'failed';
    await this.uow.run(async (tx) => {
      const updated = await tx.manager
        .createQueryBuilder()
        .update(WebhookDelivery)
        .set({
          status,
          attempts: attempt,
          next_attempt_datetime: delay === null ? null : new Date(now.getTime() + delay),
          locked_until_datetime: null,
          lease_token: null,
          last_attempt_datetime: now,
          last_response_code: outcome.statusCode,
          delivered_datetime: delivered ? now : null,
        })
        .where('webhook_delivery_id = :id AND lease_token = :lease', { id: delivery.webhook_delivery_id, lease })
        .execute();
      if (updated.affected !== 1) return;
      await tx.manager.insert(WebhookAttempt, {
        webhook_delivery_id: delivery.webhook_delivery_id,
        attempt,
        attempt_datetime: now,
        response_code: outcome.statusCode,
        response_body: delivered ? null : outcome.body,
        error: outcome.error === null ? null : outcome.error.slice(0, 255),
      });
    });
  }
}
