import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { CollectionAction, pickAction } from 'src/core/actions/actions';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created } from 'src/core/envelope/api-result';
import { WireFormat } from 'src/core/wire/wire-format';
import { UsageOutcome, UsageService } from './usage.service';

/** `/usage`: push usage for metered subscription lines (SPEC "Usage"), one record or a bulk. */
@Controller('api/v3/usage')
export class UsageController {
  private readonly collectionActions: Record<string, CollectionAction> = {
    bulk: async (body) => (await this.usage.recordMany(body)).map(bulkEntry),
  };

  constructor(
    private readonly usage: UsageService,
    private readonly wire: WireFormat,
  ) {}

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.usage.findOne(ref);
  }

  @Post()
  async create(@Query('action') action: unknown, @Body() body: unknown, @Ctx() ctx: RequestContext): Promise<unknown> {
    if (action !== undefined) return pickAction(this.collectionActions, 'usage', action)(body, ctx);
    const id = await this.usage.record(body);
    return created(this.wire.apiUrl('usage', id), id) satisfies ApiResult;
  }

  @Post('_action/:action')
  collectionAction(
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.collectionActions, 'usage', action)(body, ctx);
  }
}

/** One record's answer in a bulk, shaped as a `_bulk` entry: its own code and envelope. */
function bulkEntry(outcome: UsageOutcome): Record<string, unknown> {
  return 'id' in outcome
    ? { code: 201, status: 'OK', message: '', response: { id: outcome.id } }
    : { code: 400, status: 'Error', message: outcome.error, response: false };
}
