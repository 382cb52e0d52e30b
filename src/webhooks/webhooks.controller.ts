import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult } from 'src/core/envelope/api-result';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { WireFormat } from 'src/core/wire/wire-format';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { WebhookLogService } from './log/webhook-log.service';
import { WebhooksService } from './webhooks.service';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';
import { AnswersWith } from 'src/core/envelope/envelope-schema';
import { WireWebhookLog } from './log/wire-webhook-log';
import { WireWebhook } from './wire-webhook';

/**
 * `/_resthook`. Create answers 201 with `{id, secret}`: the secret (`whsec_...`) signs
 * every delivery (Standard Webhooks) and is shown only here, never on reads.
 */
@Controller('api/v3/_resthook')
export class WebhooksController {
  constructor(
    private readonly hooks: WebhooksService,
    private readonly log: WebhookLogService,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  @AnswersWith(WireWebhook, true)
  list(@Query() query: Record<string, unknown>): Promise<WireWebhook[]> {
    return this.hooks.list(query);
  }

  @Get(':ref')
  @AnswersWith(WireWebhook)
  findOne(@Param('ref') ref: string): Promise<WireWebhook> {
    return this.hooks.findOne(ref);
  }

  @Get(':ref/_log')
  @AnswersWith(WireWebhookLog, true)
  async logOf(@Param('ref') ref: string, @Query() query: Record<string, unknown>): Promise<WireWebhookLog[]> {
    return this.log.list(query, (await this.hooks.hookOf(ref)).webhook_id);
  }

  @Post()
  @NoCollectionActions()
  async create(@Body(DtoPipe) dto: CreateWebhookDto, @Ctx() ctx: RequestContext): Promise<ApiResult> {
    const { id, secret } = await this.hooks.create(ctx, dto);
    return new ApiResult(201, { id, secret }, { Location: this.wire.apiUrl('_resthook', id) });
  }

  @Delete(':ref')
  remove(@Param('ref') ref: string, @Ctx() ctx: RequestContext): Promise<true> {
    return this.hooks.remove(ctx, ref);
  }
}
