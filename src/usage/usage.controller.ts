import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created } from 'src/core/envelope/api-result';
import { WireFormat } from 'src/core/wire/wire-format';
import { UsageRecordInputDto } from './dto/usage-record.dto';
import { UsageOutcome, UsageService } from './usage.service';
import { AnswersWith } from 'src/core/envelope/envelope-schema';
import { WireUsage } from './wire-usage';

/** `/usage`: push usage for metered subscription lines (SPEC "Usage"), one record or a bulk. */
@ApiTags('usage')
@Controller('api/v3/usage')
export class UsageController {
  constructor(
    private readonly usage: UsageService,
    private readonly wire: WireFormat,
    private readonly actions: ActionCatalog,
  ) {
    // Its own parser: each of up to 1000 records gets its own answer (a pipe fails the whole request).
    actions.collection(
      'usage',
      'bulk',
      {
        summary: 'Push up to 1000 usage records (an array of records), each answered on its own',
        body: { none: true },
      },
      async (body) => (await this.usage.recordMany(body)).map(bulkEntry),
    );
  }

  @Get(':ref')
  @ApiOperation({ summary: 'Read a usage record' })
  @AnswersWith(WireUsage)
  findOne(@Param('ref') ref: string): Promise<WireUsage> {
    return this.usage.findOne(ref);
  }

  @Post()
  @ApiOperation({ summary: 'Push a usage record' })
  @ApiBody({ type: UsageRecordInputDto })
  async create(@Query('action') action: unknown, @Body() body: unknown, @Ctx() ctx: RequestContext): Promise<unknown> {
    if (action !== undefined) return this.actions.runCollection('usage', action, body, ctx);
    const id = await this.usage.record(body);
    return created(this.wire.apiUrl('usage', id), id) satisfies ApiResult;
  }

  @Post('_action/:action')
  @ApiOperation({ summary: 'Run an action on usage (by path)' })
  collectionAction(
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return this.actions.runCollection('usage', action, body, ctx);
  }
}

/** One record's answer in a bulk, shaped as a `_bulk` entry: its own code and envelope. */
type BulkEntry =
  | { code: 201; status: 'OK'; message: ''; response: { id: number } }
  | { code: 400; status: 'Error'; message: string; response: false };

function bulkEntry(outcome: UsageOutcome): BulkEntry {
  return 'id' in outcome
    ? { code: 201, status: 'OK', message: '', response: { id: outcome.id } }
    : { code: 400, status: 'Error', message: outcome.error, response: false };
}
