import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { parsePathRef } from 'src/core/refs/path-ref';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { UnitOfWork } from 'src/database/unit-of-work';
import { WebhookDeliverer } from 'src/webhooks/delivery/webhook-deliverer';
import { WebhookAttempt } from 'src/webhooks/entities/webhook-attempt.entity';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { WEBHOOK_LOG_QUERY_FIELDS } from 'src/webhooks/webhook.query-fields';
import { WebhookLogPresenter } from './webhook-log.presenter';
import { WireWebhookLog } from './wire-webhook-log';

const RESOURCE = 'webhook_log';

/** The delivery log: every delivery with its attempts, and the manual retry. */
@Injectable()
export class WebhookLogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly presenter: WebhookLogPresenter,
    private readonly deliverer: WebhookDeliverer,
    private readonly wire: WireFormat,
  ) {}

  /** The whole log, or one hook's part of it. */
  async list(query: Record<string, unknown>, hookId?: number): Promise<WireWebhookLog[]> {
    const qb = this.dataSource.manager.createQueryBuilder(WebhookDelivery, 'd');
    if (hookId !== undefined) qb.where('d.webhook_id = :hookId', { hookId });
    applyListQuery(qb, WEBHOOK_LOG_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'd.webhook_delivery_id', dir: 'DESC' },
    });
    return this.presentMany(await qb.getMany());
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(WebhookDelivery, 'd');
    applyWhere(qb, WEBHOOK_LOG_QUERY_FIELDS, query.where, this.wire.timezone);
    return qb.getCount();
  }

  async findOne(ref: string): Promise<WireWebhookLog> {
    const [presented] = await this.presentMany([await this.deliveryOf(ref)]);
    return presented;
  }

  /** Action `retry`: a failed or given-up delivery is attempted again now. */
  async retry(ref: string, ctx: RequestContext): Promise<true> {
    const delivery = await this.deliveryOf(ref);
    const id = delivery.webhook_delivery_id;
    await this.uow.run(async (tx) => {
      const reopened = await tx.manager.update(
        WebhookDelivery,
        { webhook_delivery_id: id, status: In(['failed', 'given_up']) },
        { status: 'pending', next_attempt_datetime: this.clock.now(), locked_until_datetime: null, lease_token: null },
      );
      if (reopened.affected !== 1) {
        throw ApiError.badRequest(
          `Only a failed or given-up delivery can be retried; webhook_log ${id} is ${delivery.status}.`,
        );
      }
      await this.revisions.record(tx, ctx, RESOURCE, id, 'Webhook delivery retried');
      tx.afterCommit(() => this.deliverer.kick(id, delivery.attempts));
    });
    return true;
  }

  /** Attempts of the whole page in one query (no query per delivery). */
  private async presentMany(deliveries: WebhookDelivery[]): Promise<WireWebhookLog[]> {
    if (deliveries.length === 0) return [];
    const attempts = await this.dataSource.manager.find(WebhookAttempt, {
      where: { webhook_delivery_id: In(deliveries.map((d) => d.webhook_delivery_id)) },
      order: { webhook_delivery_id: 'ASC', attempt: 'ASC' },
    });
    const byDelivery = new Map<number, WebhookAttempt[]>();
    for (const attempt of attempts) {
      const list = byDelivery.get(attempt.webhook_delivery_id) ?? [];
      list.push(attempt);
      byDelivery.set(attempt.webhook_delivery_id, list);
    }
    return deliveries.map((d) => this.presenter.present(d, byDelivery.get(d.webhook_delivery_id) ?? []));
  }

  private async deliveryOf(ref: string): Promise<WebhookDelivery> {
    const parsed = parsePathRef(ref);
    const delivery =
      parsed?.kind === 'id'
        ? await this.dataSource.manager.findOneBy(WebhookDelivery, { webhook_delivery_id: parsed.id })
        : null;
    if (!delivery) throw ApiError.notFound(RESOURCE);
    return delivery;
  }
}
