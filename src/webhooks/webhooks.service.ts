import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery } from 'src/core/query';
import { parsePathRef } from 'src/core/refs/path-ref';
import { RevisionService } from 'src/core/revisions/revision.service';
import { WireFormat } from 'src/core/wire/wire-format';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { checkNewTarget, TargetRefusedError } from './delivery/target-url-guard';
import { WebhookDeliverer } from './delivery/webhook-deliverer';
import { newWebhookSecret } from './delivery/webhook-signature';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { Webhook } from './entities/webhook.entity';
import { eventPatternProblem } from './webhook-events';
import { WebhookPresenter } from './webhook.presenter';
import { WEBHOOK_QUERY_FIELDS } from './webhook.query-fields';
import { WireWebhook } from './wire-webhook';

export const RESTHOOK_RESOURCE = 'resthook';

/** Hooks: create (checked target, fresh secret), read, list, delete. */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly presenter: WebhookPresenter,
    private readonly deliverer: WebhookDeliverer,
    private readonly wire: WireFormat,
  ) {}

  async create(ctx: RequestContext, dto: CreateWebhookDto): Promise<{ id: number; secret: string }> {
    if (dto.target_url === undefined) throw ApiError.badRequest('A required parameter was missing: target_url.');
    if (dto.event === undefined) throw ApiError.badRequest('A required parameter was missing: event.');
    const problem = eventPatternProblem(dto.event);
    if (problem) throw ApiError.badRequest(`Invalid field "event": ${problem}.`);
    try {
      await checkNewTarget(
        dto.target_url,
        { allowPrivate: this.config.webhookAllowPrivateTargets },
        this.deliverer.resolver,
      );
    } catch (error) {
      if (error instanceof TargetRefusedError)
        throw ApiError.badRequest(`Invalid field "target_url": ${error.message}.`);
      throw error;
    }
    const secret = newWebhookSecret();
    const fields = { target_url: dto.target_url, event: dto.event, nickname: dto.nickname ?? null, secret };
    const id = await this.uow.run((tx) => this.insertHook(tx, ctx, fields));
    return { id, secret };
  }

  /**
   * Writes a vetted hook in the caller's transaction: the events recorded after it in that
   * transaction (the rest of a group commit) are delivered to it.
   */
  async insertHook(
    tx: Tx,
    ctx: RequestContext,
    fields: Pick<Webhook, 'target_url' | 'event' | 'nickname' | 'secret'>,
  ): Promise<number> {
    const inserted = await tx.manager.insert(Webhook, { ...fields, write_datetime: this.clock.now() });
    const hookId = (inserted.identifiers[0] as { webhook_id: number }).webhook_id;
    await this.revisions.record(tx, ctx, RESTHOOK_RESOURCE, hookId, 'Webhook created');
    return hookId;
  }

  async findOne(ref: string): Promise<WireWebhook> {
    return this.presenter.present(await this.hookOf(ref));
  }

  async list(query: Record<string, unknown>): Promise<WireWebhook[]> {
    const qb = this.dataSource.manager.createQueryBuilder(Webhook, 'w');
    applyListQuery(qb, WEBHOOK_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 'w.webhook_id', dir: 'ASC' },
    });
    return (await qb.getMany()).map((hook) => this.presenter.present(hook));
  }

  /** Deletes the hook; its open deliveries are given up (the log keeps them). */
  async remove(ctx: RequestContext, ref: string): Promise<true> {
    const hook = await this.hookOf(ref);
    await this.uow.run(async (tx) => {
      const now = this.clock.now();
      await tx.manager.update(Webhook, hook.webhook_id, { deleted_datetime: now });
      await tx.manager.update(
        WebhookDelivery,
        { webhook_id: hook.webhook_id, status: In(['pending', 'failed']) },
        { status: 'given_up', next_attempt_datetime: null },
      );
      await this.revisions.record(tx, ctx, RESTHOOK_RESOURCE, hook.webhook_id, 'Webhook deleted');
    });
    return true;
  }

  /** The live hook a path names (numeric id only: hooks have no token or external key). */
  async hookOf(ref: string): Promise<Webhook> {
    const parsed = parsePathRef(ref);
    const hook =
      parsed?.kind === 'id' ? await this.dataSource.manager.findOneBy(Webhook, { webhook_id: parsed.id }) : null;
    if (!hook) throw ApiError.notFound(RESTHOOK_RESOURCE);
    return hook;
  }
}
