import { Process, Processor } from '@nestjs/bull';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource, In } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { turnBatch, TurnBatch } from 'src/core/batching/turn-batch';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { JobOf, JobQueue, JOBS_QUEUE } from 'src/core/jobs/job-queue';
import { randomToken } from 'src/core/refs/random-token';
import { lockForUpdate } from 'src/database/dialect';
import { insertRows } from 'src/database/insert-row';
import { UnitOfWork } from 'src/database/unit-of-work';
import { WebhookAttempt } from 'src/webhooks/entities/webhook-attempt.entity';
import { DeliveryStatus, WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { Webhook } from 'src/webhooks/entities/webhook.entity';
import { deliveryEnvelope } from './delivery-envelope';
import { PostOutcome, postPinned } from './pinned-post';
import { retryDelayAfter } from './retry-schedule';
import { HostResolver, systemResolver, TargetRefusedError, VettedTarget, vetTarget } from './target-url-guard';
import { SharedTokenService } from './shared-token.service';
import { signWebhook } from './webhook-signature';

export const DELIVER_JOB = 'webhook.deliver';
/** DESIGN §6: no answer within 15 s is a failure. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** Longer than the timeout: a lease only outlives its attempt when the instance died. */
const LEASE_MS = 60_000;
/** Enough of a non-200 answer to see what went wrong, without storing a whole page. */
export const MAX_LOGGED_BODY_CHARS = 4096;

/** A delivery claimed for one attempt, with what the attempt needs. */
interface Claimed {
  delivery: WebhookDelivery;
  lease: string;
  /** Null when the hook was deleted: the delivery is given up without a POST. */
  hook: Webhook | null;
  data: Record<string, unknown>;
}

/** The outcome of one attempt, to be written under its lease. */
interface Finished {
  claimed: Claimed;
  outcome: PostOutcome;
  giveUp: boolean;
}

/** A job's deliveries: `deliveryIds`, or `deliveryId` (jobs queued by an earlier build). */
function deliveryIdsOf(payload: Record<string, unknown>): number[] {
  const ids = Array.isArray(payload.deliveryIds) ? payload.deliveryIds : [payload.deliveryId];
  return ids.map(Number).filter((id) => Number.isInteger(id) && id > 0);
}

/**
 * Makes attempts of deliveries. A row is claimed first with a conditional UPDATE (due,
 * not delivered, lease free), so however many instances or jobs race for it, exactly one
 * POSTs; the outcome is written back only under the same lease.
 *
 * Under load the database work is shared (core/batching/turn-batch.ts): the attempts
 * started in one turn of the event loop are claimed by one UPDATE and read by one query
 * per table, and the outcomes that arrive in one turn are written in one transaction. Each
 * outcome is written as soon as its answer is in (not when the whole batch is done), so a
 * process killed mid-batch re-sends as little as possible: only the attempts whose answer
 * had come and not yet been written.
 */
@Injectable()
@Processor(JOBS_QUEUE)
export class WebhookDeliverer {
  private readonly logger = new Logger('Webhooks');
  /** Replaceable in tests, to point names at chosen addresses. */
  resolver: HostResolver = systemResolver;
  private readonly claims: TurnBatch<number, Claimed | null> = turnBatch((ids) => this.claimMany(ids));
  private readonly outcomes: TurnBatch<Finished, void> = turnBatch((items) => this.finishMany(items));
  private readonly source: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly sharedToken: SharedTokenService,
  ) {
    this.source = new URL(config.publicUrl).hostname;
  }

  /** The job `kickMany` queued: an attempt of each of its deliveries. */
  @Process(DELIVER_JOB)
  async deliverJob(job: JobOf<Record<string, unknown>>): Promise<void> {
    await Promise.all(
      deliveryIdsOf(job.data).map((id) =>
        this.attempt(id).catch((error: unknown) => {
          // The lease runs out and the sweeper tries again; the job itself must not fail.
          this.logger.error(`Delivery ${id}: ${error instanceof Error ? error.message : String(error)}`);
        }),
      ),
    );
  }

  /** Queues an attempt; the job id makes repeats of the same attempt one job. */
  kick(deliveryId: number, attempts: number): Promise<void> {
    return this.kickMany([{ webhook_delivery_id: deliveryId, attempts }]);
  }

  /**
   * Queues one job for attempts of several deliveries. Its id names the first delivery's
   * attempt and the count, so the sweeper queuing the same due rows again while the job
   * waits adds nothing; any other repeat only costs a claim that finds the rows taken.
   */
  kickMany(deliveries: ReadonlyArray<Pick<WebhookDelivery, 'webhook_delivery_id' | 'attempts'>>): Promise<void> {
    if (deliveries.length === 0) return Promise.resolve();
    const [first] = deliveries;
    const jobId =
      deliveries.length === 1
        ? `webhook-delivery-${first.webhook_delivery_id}-${first.attempts}`
        : `webhook-deliveries-${first.webhook_delivery_id}-${first.attempts}-${deliveries.length}`;
    const deliveryIds = deliveries.map((d) => d.webhook_delivery_id);
    return this.jobs.enqueue(DELIVER_JOB, { deliveryIds }, { jobId });
  }

  /** One attempt of one delivery, if it is due and no one else holds it. */
  async attempt(deliveryId: number): Promise<void> {
    const claimed = await this.claims.load(deliveryId);
    if (!claimed) return;
    if (!claimed.hook || claimed.hook.deleted_datetime) {
      const outcome = { statusCode: null, body: null, error: 'the hook was deleted' };
      await this.outcomes.load({ claimed, outcome, giveUp: true });
      return;
    }
    const outcome = await this.send(claimed.hook, claimed.delivery, claimed.data);
    await this.outcomes.load({ claimed, outcome, giveUp: false });
  }

  /** Leases those of `ids` that are due and free (one UPDATE), and reads what their attempts need. */
  private async claimMany(ids: readonly number[]): Promise<Array<Claimed | null>> {
    const unique = [...new Set(ids)];
    const now = this.clock.now();
    const lease = randomToken(24);
    await this.uow.run((tx) =>
      tx.manager
        .createQueryBuilder()
        .update(WebhookDelivery)
        .set({ lease_token: lease, locked_until_datetime: new Date(now.getTime() + LEASE_MS) })
        .where('webhook_delivery_id IN (:...unique)', { unique })
        .andWhere('status IN (:...open)', { open: ['pending', 'failed'] })
        .andWhere('next_attempt_datetime <= :now', { now })
        .andWhere('(locked_until_datetime IS NULL OR locked_until_datetime < :now)', { now })
        .execute(),
    );
    const m = this.dataSource.manager;
    const deliveries = await m.findBy(WebhookDelivery, { webhook_delivery_id: In(unique), lease_token: lease });
    const claimed = new Map<number, Claimed>();
    if (deliveries.length > 0) {
      const hookIds = [...new Set(deliveries.map((d) => d.webhook_id))];
      const eventIds = [...new Set(deliveries.map((d) => d.domain_event_id))];
      const hooks = new Map(
        (await m.find(Webhook, { where: { webhook_id: In(hookIds) }, withDeleted: true })).map((h) => [
          h.webhook_id,
          h,
        ]),
      );
      const events = new Map(
        (await m.findBy(DomainEvent, { domain_event_id: In(eventIds) })).map((e) => [e.domain_event_id, e.data]),
      );
      for (const delivery of deliveries) {
        const data = events.get(delivery.domain_event_id);
        if (data === undefined)
          throw new Error(`event ${delivery.domain_event_id} of delivery ${delivery.webhook_delivery_id} is missing`);
        const hook = hooks.get(delivery.webhook_id) ?? null;
        claimed.set(delivery.webhook_delivery_id, { delivery, lease, hook, data });
      }
    }
    // A delivery asked for twice in one batch is attempted once.
    const handedOut = new Set<number>();
    return ids.map((id) => {
      if (handedOut.has(id)) return null;
      handedOut.add(id);
      return claimed.get(id) ?? null;
    });
  }

  private async send(hook: Webhook, delivery: WebhookDelivery, data: Record<string, unknown>): Promise<PostOutcome> {
    const token = await this.sharedToken.token();
    const body = JSON.stringify(deliveryEnvelope(delivery, data, token));
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const headers = {
      'Content-Type': 'application/json',
      'X-Service-Key': token,
      'X-Service-Source': this.source,
      'webhook-id': delivery.message_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(hook.secret, delivery.message_id, timestamp, body),
    };
    let target: VettedTarget;
    try {
      // Checked again on every attempt: DNS may have changed since the hook was made.
      target = await vetTarget(
        hook.target_url,
        { allowPrivate: this.config.webhookAllowPrivateTargets },
        this.resolver,
      );
    } catch (error) {
      if (error instanceof TargetRefusedError)
        return { statusCode: null, body: null, error: `target refused: ${error.message}` };
      throw error;
    }
    return postPinned(outsideUnit('webhook delivery'), target, body, headers, {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBodyChars: MAX_LOGGED_BODY_CHARS,
    });
  }

  /**
   * Writes the attempts and the deliveries' next states in one transaction, each only while
   * its lease is still ours: the rows are read under their locks first, and those whose
   * lease ran out and was taken by another attempt are left alone.
   */
  private async finishMany(items: readonly Finished[]): Promise<void[]> {
    const now = this.clock.now();
    await this.uow.run(async (tx) => {
      const ids = items.map((item) => item.claimed.delivery.webhook_delivery_id);
      const leases = await lockForUpdate(
        tx.manager
          .getRepository(WebhookDelivery)
          .createQueryBuilder('d')
          .select(['d.webhook_delivery_id', 'd.lease_token'])
          .where('d.webhook_delivery_id IN (:...ids)', { ids }),
      ).getMany();
      const leaseOf = new Map(leases.map((d) => [d.webhook_delivery_id, d.lease_token]));
      const owned = items.filter(
        (item) => leaseOf.get(item.claimed.delivery.webhook_delivery_id) === item.claimed.lease,
      );
      if (owned.length === 0) return;
      const delivered = owned.filter((item) => item.outcome.statusCode === 200);
      if (delivered.length > 0) {
        // The common case, one statement for all: delivered, lease released.
        await tx.manager
          .createQueryBuilder()
          .update(WebhookDelivery)
          .set({
            status: 'delivered',
            attempts: () => 'attempts + 1',
            next_attempt_datetime: null,
            locked_until_datetime: null,
            lease_token: null,
            last_attempt_datetime: now,
            last_response_code: 200,
            delivered_datetime: now,
          })
          .where('webhook_delivery_id IN (:...ids)', {
            ids: delivered.map((item) => item.claimed.delivery.webhook_delivery_id),
          })
          .execute();
      }
      for (const item of owned) {
        if (item.outcome.statusCode === 200) continue;
        const attempt = item.claimed.delivery.attempts + 1;
        const delay = item.giveUp ? null : retryDelayAfter(attempt);
        const status: DeliveryStatus = delay === null ? 'given_up' : 'failed';
        await tx.manager.update(WebhookDelivery, item.claimed.delivery.webhook_delivery_id, {
          status,
          attempts: attempt,
          next_attempt_datetime: delay === null ? null : new Date(now.getTime() + delay),
          locked_until_datetime: null,
          lease_token: null,
          last_attempt_datetime: now,
          last_response_code: item.outcome.statusCode,
          delivered_datetime: null,
        });
      }
      await insertRows(
        tx.manager,
        WebhookAttempt,
        owned.map(({ claimed, outcome }) => ({
          webhook_delivery_id: claimed.delivery.webhook_delivery_id,
          attempt: claimed.delivery.attempts + 1,
          attempt_datetime: now,
          response_code: outcome.statusCode,
          response_body: outcome.statusCode === 200 ? null : outcome.body,
          error: outcome.error === null ? null : outcome.error.slice(0, 255),
        })),
      );
    });
    return items.map(() => undefined);
  }
}
