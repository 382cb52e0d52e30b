import { Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ObjectAction, pickAction } from 'src/core/actions/actions';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { WebhookLogService } from './webhook-log.service';

/** `/webhook_log`: every delivery, newest first; action `retry`. */
@Controller('api/v3/webhook_log')
export class WebhookLogController {
  private readonly actions: Record<string, ObjectAction> = {
    retry: (ref, _body, ctx) => this.log.retry(ref, ctx),
  };

  constructor(private readonly log: WebhookLogService) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.log.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.log.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.log.findOne(ref);
  }

  @Post(':ref')
  action(@Param('ref') ref: string, @Query('action') action: unknown, @Ctx() ctx: RequestContext): Promise<unknown> {
    return pickAction(this.actions, 'webhook_log', action)(ref, {}, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions, 'webhook_log', action)(ref, {}, ctx);
  }
}
