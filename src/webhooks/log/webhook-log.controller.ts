import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { WebhookLogService } from './webhook-log.service';
import { AnswersWith } from 'src/core/envelope/envelope-schema';
import { WireWebhookLog } from './wire-webhook-log';

/** `/webhook_log`: every delivery, newest first; action `retry`. */
@ApiTags('webhook_log')
@Controller('api/v3/webhook_log')
export class WebhookLogController {
  constructor(
    private readonly log: WebhookLogService,
    private readonly actions: ActionCatalog,
  ) {
    actions.object(
      'webhook_log',
      'retry',
      { summary: 'Send a failed or given-up delivery again', body: { none: true } },
      (ref, _body, ctx) => this.log.retry(ref, ctx),
    );
  }

  @Get()
  @ApiOperation({ summary: 'List webhook deliveries, newest first' })
  @AnswersWith(WireWebhookLog, true)
  list(@Query() query: Record<string, unknown>): Promise<WireWebhookLog[]> {
    return this.log.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.log.count(query);
  }

  @Get(':ref')
  @AnswersWith(WireWebhookLog)
  findOne(@Param('ref') ref: string): Promise<WireWebhookLog> {
    return this.log.findOne(ref);
  }

  @Post(':ref')
  action(@Param('ref') ref: string, @Query('action') action: unknown, @Ctx() ctx: RequestContext): Promise<unknown> {
    return this.actions.runObject('webhook_log', action, ref, {}, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return this.actions.runObject('webhook_log', action, ref, {}, ctx);
  }
}
