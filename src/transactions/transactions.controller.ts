import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { CollectionAction, ObjectAction, pickAction } from 'src/core/actions/actions';
import { Ctx, RequestContext } from 'src/core/context/request-context';
import { ApiResult, created } from 'src/core/envelope/api-result';
import { RevisionService } from 'src/core/revisions/revision.service';
import { isPlainObject, validateBody } from 'src/core/validation/validate-body';
import { WireFormat } from 'src/core/wire/wire-format';
import { RecordTransactionDto } from './dto/record-transaction.dto';
import { ChangeAppliedDto, DeclineDto, EmailReceiptDto, RefundDto } from './dto/transaction-actions.dto';
import { PaymentService } from './payment.service';
import { TransactionActionsService } from './transaction-actions.service';
import { TransactionReceiptService } from './transaction-receipt.service';
import { TransactionsService } from './transactions.service';

@Controller('api/v3/transaction')
export class TransactionsController {
  private readonly collectionActions: Record<string, CollectionAction> = {
    pay: (body, ctx) => this.payments.pay(ctx, body),
  };

  private readonly objectActions: Record<string, ObjectAction> = {
    void: (ref, _body, ctx) => this.actions.void(ctx, ref),
    decline: (ref, body, ctx) => this.actions.decline(ctx, ref, validateBody(DeclineDto, body)),
    refund: (ref, body, ctx) => this.actions.refund(ctx, ref, validateBody(RefundDto, body).amount),
    changeAppliedAmounts: (ref, body, ctx) =>
      this.actions.changeAppliedAmounts(ctx, ref, validateBody(ChangeAppliedDto, body).applied_to),
    email: (ref, body, ctx) => this.receipts.send(ctx, ref, validateBody(EmailReceiptDto, body)),
  };

  constructor(
    private readonly transactions: TransactionsService,
    private readonly payments: PaymentService,
    private readonly actions: TransactionActionsService,
    private readonly receipts: TransactionReceiptService,
    private readonly revisions: RevisionService,
    private readonly wire: WireFormat,
  ) {}

  @Get()
  list(@Query() query: Record<string, unknown>): Promise<Record<string, unknown>[]> {
    return this.transactions.list(query);
  }

  @Get('_count')
  count(@Query() query: Record<string, unknown>): Promise<number> {
    return this.transactions.count(query);
  }

  @Get(':ref')
  findOne(@Param('ref') ref: string): Promise<Record<string, unknown>> {
    return this.transactions.findOne(ref);
  }

  @Get(':ref/_revision')
  async revisionsOf(@Param('ref') ref: string, @Query('limit') limit: unknown): Promise<Record<string, unknown>[]> {
    return this.revisions.list('transaction', await this.transactions.idOf(ref), limit);
  }

  /** POST /transaction records; `?action=pay` charges. */
  @Post()
  async create(@Query('action') action: unknown, @Body() body: unknown, @Ctx() ctx: RequestContext): Promise<unknown> {
    if (action !== undefined) return pickAction(this.collectionActions, 'transaction', action)(body, ctx);
    // Not @Body(DtoPipe): `?action=` picks another body (the pay request), so the action is read first.
    const dto = validateBody(RecordTransactionDto, body);
    const id = await this.transactions.record(ctx, dto, isPlainObject(body) ? body : {});
    return created(this.wire.apiUrl('transaction', id), id) satisfies ApiResult;
  }

  @Post('_action/:action')
  collectionAction(
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.collectionActions, 'transaction', action)(body, ctx);
  }

  @Post(':ref')
  action(
    @Param('ref') ref: string,
    @Query('action') action: unknown,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.objectActions, 'transaction', action)(ref, body, ctx);
  }

  @Post(':ref/_action/:action')
  actionByPath(
    @Param('ref') ref: string,
    @Param('action') action: string,
    @Body() body: unknown,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return pickAction(this.objectActions, 'transaction', action)(ref, body, ctx);
  }
}
