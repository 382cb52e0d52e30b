import { Body, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created } from 'src/core/envelope/api-result';
import { isPlainObject, validateBody } from 'src/core/validation/validate-body';
import { WireFormat } from 'src/core/wire/wire-format';
import { NoCollectionActions } from 'src/core/actions/no-collection-actions.guard';

/** What each payment-method resource offers its controller. */
export interface PaymethodResource<Dto> {
  create(ctx: RequestContext, dto: Dto, body: Record<string, unknown>): Promise<number>;
  findOne(ref: string): Promise<Record<string, unknown>>;
  list(query: Record<string, unknown>): Promise<Record<string, unknown>[]>;
  count(query: Record<string, unknown>): Promise<number>;
  remove(ctx: RequestContext, ref: string): Promise<true>;
}

/**
 * The routes shared by `/creditcard`, `/ach` and `/tokenized` (POST 201, GET one, list,
 * `_count`, DELETE); each subclass names its path, DTO and service.
 */
export abstract class PaymethodResourceController<Dto extends object> {
  protected abstract readonly path: string;
  protected abstract readonly dto: new () => Dto;
  protected abstract readonly readOnly: readonly string[];

  protected constructor(
    private readonly resource: PaymethodResource<Dto>,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.resource.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.resource.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.resource.findOne(ref);
  }

  @Post()
  @NoCollectionActions()
  async create(@Body() body: unknown, @Ctx() ctx: RequestContext): Promise<ApiResult> {
    const dto = validateBody(this.dto, body, {
      readOnly: this.readOnly,
      requireData: true,
      extraAllowed: ['customer_token', 'customer_external_key'],
    });
    const id = await this.resource.create(ctx, dto, isPlainObject(body) ? body : {});
    return created(this.wire.apiUrl(this.path, id), id);
  }

  @Delete(':ref')
  remove(@Param('ref') ref: string, @Ctx() ctx: RequestContext): Promise<true> {
    return this.resource.remove(ctx, ref);
  }
}
