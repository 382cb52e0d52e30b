import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { pickAction } from 'src/core/actions/actions';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created, updated } from 'src/core/envelope/api-result';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { WireFormat } from 'src/core/wire/wire-format';
import { CreateInvoiceDto, UpdateInvoiceDto } from './dto/invoice-fields.dto';
import { InvoiceActions } from './invoice-actions';
import { InvoicesService } from './invoices.service';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';

@Controller('api/v3/invoice')
export class InvoicesController {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly actions: InvoiceActions,
    private readonly revisions: RevisionService,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.invoices.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.invoices.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.invoices.findOne(ref);
  }

  @Get(':ref/_revision')
  async revisionsOf(@Param('ref') ref: string, @Query('limit') limit: unknown): Promise<Record<string, unknown>[]> {
    return this.revisions.list('invoice', await this.invoices.idOf(ref), limit);
  }

  @Post()
  @NoCollectionActions()
  async create(
    @Body(DtoPipe) dto: CreateInvoiceDto,
    @Body() body: Record<string, unknown>,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.invoices.create(ctx, dto, body);
    return created(this.wire.apiUrl('invoice', id), id);
  }

  @Put(':ref')
  async update(
    @Param('ref') ref: string,
    @Body(DtoPipe) dto: UpdateInvoiceDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.invoices.update(ctx, ref, dto);
    return updated(this.wire.apiUrl('invoice', id), id);
  }

  @Delete(':ref')
  remove(@Param('ref') ref: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return this.invoices.delete(ctx, ref);
  }

  @Post(':ref')
  action(
    @Param('ref') ref: string,
    @Query('action') action: unknown,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions.all(), 'invoice', action)(ref, body, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.actions.all(), 'invoice', action)(ref, body, ctx);
  }
}
