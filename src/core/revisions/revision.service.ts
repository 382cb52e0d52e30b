import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { DatetimeRenderer } from 'src/core/time/datetime-format';
import { insertAtCommit } from 'src/database/deferred-inserts';
import { Tx } from 'src/database/unit-of-work';
import { Revision } from './revision.entity';

/** Writes a revision row with every change, and reads them back for `_revision`. */
@Injectable()
export class RevisionService {
  private readonly render: DatetimeRenderer;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.render = new DatetimeRenderer(config.timezone, config.datetimeFormat);
  }

  /** The row is written when the transaction ends (nothing reads it before): see deferred-inserts.ts. */
  async record(tx: Tx, ctx: RequestContext, contextStr: string, contextId: number, note: string): Promise<void> {
    await insertAtCommit(tx.manager, Revision, {
      context_str: contextStr,
      context_id: contextId,
      admin_id: null,
      user_id: null,
      integration_id: ctx.integrationId,
      revision_datetime: this.clock.now(),
      revision_ipaddr: ctx.ip,
      revision_note: note.slice(0, 255),
      on_behalf_addr: ctx.onBehalfAddr,
      on_behalf_details: ctx.onBehalfDetails,
    });
  }

  /** Newest first; `limit` 1..10, default 10 (SPEC "Revisions"). */
  async list(contextStr: string, contextId: number, rawLimit: unknown): Promise<Record<string, unknown>[]> {
    const limit = parseRevisionLimit(rawLimit);
    const rows = await this.dataSource
      .getRepository(Revision)
      .createQueryBuilder('r')
      .leftJoin('api_credential', 'ac', 'ac.api_credential_id = r.integration_id')
      .addSelect('ac.username', 'integration_name')
      .where('r.context_str = :contextStr AND r.context_id = :contextId', { contextStr, contextId })
      .orderBy('r.revision_id', 'DESC')
      .limit(limit)
      .getRawAndEntities();
    return rows.entities.map((r, i) => ({
      context_str: r.context_str,
      context_id: r.context_id,
      admin_id: r.admin_id,
      admin_name: null,
      user_id: r.user_id,
      user_name: null,
      integration_id: r.integration_id,
      integration_name: (rows.raw[i] as { integration_name?: string | null }).integration_name ?? null,
      revision_datetime: this.render.datetime(r.revision_datetime),
      revision_ipaddr: r.revision_ipaddr,
      revision_note: r.revision_note,
      on_behalf_addr: r.on_behalf_addr,
      on_behalf_details: r.on_behalf_details,
    }));
  }
}

function parseRevisionLimit(raw: unknown): number {
  if (raw === undefined || raw === '') return 10;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 10) {
    throw ApiError.badRequest('Parameter "limit" for _revision must be an integer from 1 to 10.');
  }
  return Number(raw);
}
