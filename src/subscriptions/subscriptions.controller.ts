import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { pickAction } from 'src/core/actions/actions';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created, updated } from 'src/core/envelope/api-result';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { isPlainObject } from 'src/core/validation/validate-body';
import { WireFormat } from 'src/core/wire/wire-format';
import { CreateSubscriptionDto, UpdateSubscriptionDto } from './dto/subscription-fields.dto';
import { SubscriptionActions } from './subscription-actions';
import { SubscriptionsService } from './subscriptions.service';

@Controller('api/v3/package')
export class SubscriptionsController {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    private readonly actions: SubscriptionActions,
    private readonly revisions: RevisionService,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.subscriptions.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.subscriptions.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.subscriptions.findOne(ref);
  }

  @Get(':ref/_revision')
  async revisionsOf(@Param('ref') ref: string, @Query('limit') limit: unknown): Promise<Record<string, unknown>[]> {
    return this.revisions.list('package', await this.subscriptions.idOf(ref), limit);
  }

  @Post()
  @NoCollectionActions()
  async create(
    @Body(DtoPipe) dto: CreateSubscriptionDto,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.subscriptions.create(ctx, dto, isPlainObject(body) ? body : {});
    return created(this.wire.apiUrl('package', id), id);
  }

  @Put(':ref')
  async update(
    @Param('ref') ref: string,
    @Body(DtoPipe) dto: UpdateSubscriptionDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.subscriptions.update(ctx, ref, dto);
    return updated(this.wire.apiUrl('package', id), id);
  }

  @Post(':ref')
  action(
    @Param('ref') ref: string,
    @Query('action') action: unknown,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions.all(), 'package', action)(ref, body, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions.all(), 'package', action)(ref, body, ctx);
  }
}
