import { Delete, Get, Param, Query } from '@nestjs/common';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created } from 'src/core/envelope/api-result';
import { AnswersWith } from 'src/core/envelope/envelope-schema';
import { WireFormat } from 'src/core/wire/wire-format';

/** What each payment-method resource offers its controller. */
export interface PaymethodResource<Dto, Wire> {
  create(ctx: RequestContext, dto: Dto, body: Record<string, unknown>): Promise<number>;
  findOne(ref: string): Promise<Wire>;
  list(query: Record<string, unknown>): Promise<Wire[]>;
  count(query: Record<string, unknown>): Promise<number>;
  remove(ctx: RequestContext, ref: string): Promise<true>;
}

/**
 * The routes shared by `/creditcard`, `/ach` and `/tokenized` (GET one, list, `_count`,
 * DELETE, and the POST 201 each subclass routes with its DTO), made for the kind's response
 * class (its reads' envelope in the OpenAPI document); each subclass names its path and service.
 */
export function PaymethodResourceController<Wire extends object>(response: new () => Wire) {
  abstract class PaymethodRoutes<Dto extends object> {
    protected abstract readonly path: string;

    protected constructor(
      private readonly resource: PaymethodResource<Dto, Wire>,
      private readonly wire: WireFormat,
    ) {}

    @Get()
    @AnswersWith(response, true)
    list(@Query() query: Record<string, unknown>): Promise<Wire[]> {
      return this.resource.list(query);
    }

    @Get('_count')
    count(@Query() query: Record<string, unknown>): Promise<number> {
      return this.resource.count(query);
    }

    @Get(':ref')
    @AnswersWith(response)
    findOne(@Param('ref') ref: string): Promise<Wire> {
      return this.resource.findOne(ref);
    }

    /** POST: each subclass routes it with its own DTO type, which the DtoPipe reads. */
    protected async createFrom(ctx: RequestContext, dto: Dto, body: Record<string, unknown>): Promise<ApiResult> {
      const id = await this.resource.create(ctx, dto, body);
      return created(this.wire.apiUrl(this.path, id), id);
    }

    @Delete(':ref')
    remove(@Param('ref') ref: string, @Ctx() ctx: RequestContext): Promise<true> {
      return this.resource.remove(ctx, ref);
    }
  }
  return PaymethodRoutes;
}
