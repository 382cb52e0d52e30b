import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { pickAction } from 'src/core/actions/actions';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created, updated } from 'src/core/envelope/api-result';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { isPlainObject } from 'src/core/validation/validate-body';
import { WireFormat } from 'src/core/wire/wire-format';
import { CreateQuoteDto, UpdateQuoteDto } from './dto/quote-fields.dto';
import { QuoteActions } from './quote-actions';
import { QuotesService } from './quotes.service';

@Controller('api/v3/quote')
export class QuotesController {
  constructor(
    private readonly quotes: QuotesService,
    private readonly actions: QuoteActions,
    private readonly revisions: RevisionService,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.quotes.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.quotes.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.quotes.findOne(ref);
  }

  @Get(':ref/_revision')
  async revisionsOf(@Param('ref') ref: string, @Query('limit') limit: unknown): Promise<Record<string, unknown>[]> {
    return this.revisions.list('quote', await this.quotes.idOf(ref), limit);
  }

  @Post()
  @NoCollectionActions()
  async create(
    @Body(DtoPipe) dto: CreateQuoteDto,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.quotes.create(ctx, dto, isPlainObject(body) ? body : {});
    return created(this.wire.apiUrl('quote', id), id);
  }

  @Put(':ref')
  async update(
    @Param('ref') ref: string,
    @Body(DtoPipe) dto: UpdateQuoteDto,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.quotes.update(ctx, ref, dto, isPlainObject(body) ? body : {});
    return updated(this.wire.apiUrl('quote', id), id);
  }

  @Post(':ref')
  action(
    @Param('ref') ref: string,
    @Query('action') action: unknown,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions.all(), 'quote', action)(ref, body, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions.all(), 'quote', action)(ref, body, ctx);
  }
}
