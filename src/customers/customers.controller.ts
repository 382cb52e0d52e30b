import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import { ObjectAction, pickAction } from 'src/core/actions/actions';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created, updated } from 'src/core/envelope/api-result';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DtoPipe } from 'src/core/validation/dto.pipe';
import { WireFormat } from 'src/core/wire/wire-format';
import { CustomerActions } from './customer-actions';
import { CustomersService } from './customers.service';
import { CreateCustomerDto } from './dto/create-customer.dto';
import { UpdateCustomerDto } from './dto/update-customer.dto';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';

@Controller('api/v3/customer')
export class CustomersController {
  constructor(
    private readonly customers: CustomersService,
    private readonly revisions: RevisionService,
    private readonly actions: CustomerActions,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.customers.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.customers.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.customers.findOne(ref);
  }

  @Get(':ref/_revision')
  async revisionsOf(@Param('ref') ref: string, @Query('limit') limit: unknown): Promise<Record<string, unknown>[]> {
    return this.revisions.list('customer', await this.customers.idOf(ref), limit);
  }

  @Post()
  @NoCollectionActions()
  async create(@Body(DtoPipe) dto: CreateCustomerDto, @Ctx() ctx: RequestContext): Promise<ApiResult> {
    const id = await this.customers.create(ctx, dto);
    return created(this.wire.apiUrl('customer', id), id);
  }

  @Put(':ref')
  async update(
    @Param('ref') ref: string,
    @Body(DtoPipe) dto: UpdateCustomerDto,
    @Ctx() ctx: RequestContext,
  ): Promise<ApiResult> {
    const id = await this.customers.update(ctx, ref, dto);
    return updated(this.wire.apiUrl('customer', id), id);
  }

  @Delete(':ref')
  remove(@Param('ref') ref: string, @Ctx() ctx: RequestContext): Promise<true> {
    return this.customers.remove(ctx, ref);
  }

  @Post(':ref')
  action(
    @Param('ref') ref: string,
    @Query('action') action: unknown,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return this.run(action, ref, body, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return this.run(action, ref, body, ctx);
  }

  private run(name: unknown, ref: string, body: unknown, ctx: RequestContext): Promise<unknown> {
    const action: ObjectAction = pickAction(this.actions.all(), 'customer', name);
    return action(ref, body, ctx);
  }
}
