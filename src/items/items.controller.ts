import { Body, Controller, Get, Param, Post, Put, Query } from '@nestjs/common';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created, updated } from 'src/core/envelope/api-result';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { WireFormat } from 'src/core/wire/wire-format';
import { CreateItemDto, UpdateItemDto } from './dto/item-fields.dto';
import { ItemsService } from './items.service';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';

@Controller('api/v3/item')
export class ItemsController {
  constructor(
    private readonly items: ItemsService,
    private readonly revisions: RevisionService,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.items.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.items.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.items.findOne(ref);
  }

  @Get(':ref/_revision')
  async revisionsOf(@Param('ref') ref: string, @Query('limit') limit: unknown): Promise<Record<string, unknown>[]> {
    return this.revisions.list('item', await this.items.idOf(ref), limit);
  }

  @Post()
  @NoCollectionActions()
  async create(@Body(DtoPipe) dto: CreateItemDto, @Ctx() ctx: RequestContext): Promise<ApiResult> {
    const id = await this.items.create(ctx, dto);
    return created(this.wire.apiUrl('item', id), id);
  }

  @Put(':ref')
  async update(
    @Param('ref') ref: string,
    @Body(DtoPipe) dto: UpdateItemDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.items.update(ctx, ref, dto);
    return updated(this.wire.apiUrl('item', id), id);
  }
}
