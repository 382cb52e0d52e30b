import { Controller } from '@nestjs/common';
import { ActionCatalog } from 'src/core/actions/action-catalog';
import { RequestContext } from 'src/core/context/request-context';
import { ResourceController } from 'src/core/resource/resource-controller';
import { PayRequestDto } from './dto/pay-request.dto';
import { RecordTransactionDto } from './dto/record-transaction.dto';
import { ChangeAppliedDto, DeclineDto, EmailReceiptDto, RefundDto } from './dto/transaction-actions.dto';
import { PaymentService } from './payment.service';
import { TransactionActionsService } from './transaction-actions.service';
import { TransactionReceiptService } from './transaction-receipt.service';
import { TransactionsService } from './transactions.service';
import { WireTransaction } from './wire-transaction';

/** `/transaction`: POST records a credit memo or offline payment; `?action=pay` charges. */
@Controller('api/v3/transaction')
export class TransactionsController extends ResourceController({
  resource: 'transaction',
  noun: 'transaction',
  plural: 'transactions',
  create: RecordTransactionDto,
  createSummary: 'Record a credit memo or an offline payment (`?action=pay` charges)',
  actions: true,
  collectionActions: true,
  response: { one: WireTransaction },
}) {
  constructor(
    protected readonly reads: TransactionsService,
    payments: PaymentService,
    actions: TransactionActionsService,
    receipts: TransactionReceiptService,
    catalog: ActionCatalog,
  ) {
    super();
    const on = catalog.object.bind(catalog);
    // Its own parser: a card in `paymethods` is checked field by field, its number never echoed.
    catalog.collection(
      'transaction',
      'pay',
      { summary: 'Charge a card or bank account and apply the payment', body: { described: PayRequestDto } },
      (body, ctx) => payments.pay(ctx, body),
    );
    on('transaction', 'void', { summary: 'Void the transaction', body: { none: true } }, (ref, _b, ctx) =>
      actions.void(ctx, ref),
    );
    on(
      'transaction',
      'decline',
      { summary: 'Record the payment as declined', body: { dto: DeclineDto } },
      (ref, dto, ctx) => actions.decline(ctx, ref, dto),
    );
    on(
      'transaction',
      'refund',
      { summary: 'Refund the payment, in full or in part', body: { dto: RefundDto } },
      (ref, dto, ctx) => actions.refund(ctx, ref, dto.amount),
    );
    on(
      'transaction',
      'changeAppliedAmounts',
      { summary: 'Replace what the transaction is applied to', body: { dto: ChangeAppliedDto } },
      (ref, dto, ctx) => actions.changeAppliedAmounts(ctx, ref, dto.applied_to),
    );
    on('transaction', 'email', { summary: 'Mail the receipt', body: { dto: EmailReceiptDto } }, (ref, dto, ctx) =>
      receipts.send(ctx, ref, dto),
    );
  }

  protected override createObject(
    ctx: RequestContext,
    dto: RecordTransactionDto,
    body: Record<string, unknown>,
  ): Promise<number> {
    return this.reads.record(ctx, dto, body);
  }
}
