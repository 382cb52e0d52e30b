import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { ApiResult } from 'src/core/envelope/api-result';
import { sumMoney } from 'src/core/money/decimal';
import { assertExternalKeyFree } from 'src/core/refs/external-key';
import { resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { validateBody } from 'src/core/validation/validate-body';
import { CUSTOMER_REF } from 'src/customers/customers.service';
import { UnitOfWork } from 'src/database/unit-of-work';
import { addBusinessDays } from 'src/payments/business-days';
import { GatewayResult, PaymentGateway } from 'src/payments/payment-gateway';
import { ApplicationStyle } from './allocation';
import { parsePositiveAmount } from './amount-input';
import { parseAppliedTo } from './applied-to-input';
import { PayRequestDto } from './dto/pay-request.dto';
import { TRANSACTION_READ_ONLY } from './dto/record-transaction.dto';
import { Transaction } from './entities/transaction.entity';
import { InvoiceApplier } from './invoice-applier';
import { InvoiceLedger, PayableInvoice } from './invoice-ledger';
import { PaymentSource, PaymentSources } from './payment-sources';
import { customValues, TransactionWriter } from './transaction-writer';

const STATUS_OF: Readonly<Record<GatewayResult['outcome'], string>> = {
  success: 'ok-successful',
  pending: 'ok-pending',
  declined: 'fail-declined',
  error: 'fail-error',
};

/** `POST /transaction?action=pay` and `POST /invoice/<id>?action=pay`: charge and apply. */
@Injectable()
export class PaymentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly gateway: PaymentGateway,
    private readonly sources: PaymentSources,
    private readonly applier: InvoiceApplier,
    private readonly ledger: InvoiceLedger,
    private readonly writer: TransactionWriter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async pay(ctx: RequestContext, body: unknown): Promise<ApiResult> {
    const dto = validateBody(PayRequestDto, body, {
      readOnly: TRANSACTION_READ_ONLY,
      requireData: true,
      extraAllowed: ['customer_token', 'customer_external_key'],
    });
    const m = this.dataSource.manager;
    const customerId = await resolvePayloadRef(m, CUSTOMER_REF, body as Record<string, unknown>, 'customer');
    if (customerId === undefined || customerId === null) {
      throw ApiError.badRequest(
        'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
      );
    }
    const sent: ApplicationStyle = dto.applied_to === undefined ? { kind: 'none' } : parseAppliedTo(dto.applied_to);
    const given = dto.amount === undefined ? null : parsePositiveAmount(dto.amount, 'amount');
    const invoices = await this.applier.check(m, customerId, sent, given);
    const style = withScheduledAmounts(sent, invoices);
    const amount = given ?? this.amountDue(style, invoices);
    this.sources.preflight(dto.paymethods);
    await assertExternalKeyFree(m, Transaction, 'transaction_id', dto.external_key, 'transaction');
    const { sources } = await this.sources.select(m, ctx, customerId, dto.paymethods, invoices);

    let last: { id: number; result: GatewayResult; source: PaymentSource } | null = null;
    for (const [i, source] of sources.entries()) {
      const result = await this.gateway.charge(source.charge, amount);
      const ok = result.outcome === 'success' || result.outcome === 'pending';
      const keepKey = ok || i === sources.length - 1;
      const id = await this.record(ctx, customerId, amount, style, source, result, keepKey ? dto : {});
      last = { id, result, source };
      if (ok) break;
    }
    const { id, result, source } = last!;
    const details = {
      transaction_id: id,
      gateway_status: result.outcome === 'success' || result.outcome === 'pending' ? 1 : 0,
      gateway_err_code: result.errCode,
      gateway_err_detail: result.errDetail,
      gateway_msg: result.message,
      ...(source.creditcard_id !== null ? { creditcard_id: source.creditcard_id } : {}),
      ...(source.ach_id !== null ? { ach_id: source.ach_id } : {}),
      ...(source.tokenized_id !== null ? { tokenized_id: source.tokenized_id } : {}),
    };
    if (details.gateway_status === 0) {
      throw ApiError.badRequest(`This transaction could not be processed: ${result.message}`, details);
    }
    return new ApiResult(200, { id }, {}, details);
  }

  /** Without `amount`: each listed invoice's `applied`, or its whole balance. */
  private amountDue(style: ApplicationStyle, invoices: PayableInvoice[]): Decimal {
    if (style.kind !== 'list' || style.items.length === 0) {
      throw ApiError.badRequest(
        'A required parameter was missing: "amount" (or at least one invoice in "applied_to").',
      );
    }
    const balances = new Map(invoices.map((i) => [i.invoice_id, i.balance]));
    const due = sumMoney(style.items.map((item) => item.applied ?? balances.get(item.invoice_id)!));
    if (due.lte(0)) throw ApiError.badRequest('Field "applied_to": the invoices have nothing left to pay.');
    return due;
  }

  /** Records one attempt: the transaction and (counting only if it went through) its applications. */
  private record(
    ctx: RequestContext,
    customerId: number,
    amount: Decimal,
    style: ApplicationStyle,
    source: PaymentSource,
    result: GatewayResult,
    extra: PayRequestDto | Record<string, never>,
  ): Promise<number> {
    const identity = this.gateway.identity;
    return this.uow.run(async (tx) => {
      const locked = await this.applier.lock(tx, customerId, style);
      const id = await this.writer.insert(
        tx,
        ctx,
        {
          customer_id: customerId,
          transaction_type: 'pay',
          amount,
          status_str: STATUS_OF[result.outcome],
          gateway_status: result.outcome === 'success' || result.outcome === 'pending' ? 1 : 0,
          gateway_id: identity.gatewayId,
          gateway_type: identity.gatewayType,
          gateway_nickname: identity.nickname,
          gateway_transid: result.transid,
          gateway_method: source.charge.kind === 'card' ? 'creditcard' : source.charge.kind,
          gateway_msg: result.message,
          gateway_err_code: result.errCode,
          gateway_err_detail: result.errDetail,
          transaction_method: source.transaction_method,
          transaction_detail: extra.transaction_detail ?? source.transaction_detail,
          creditcard_id: source.creditcard_id,
          ach_id: source.ach_id,
          tokenized_id: source.tokenized_id,
          external_key: extra.external_key ?? null,
          memo: extra.memo ?? null,
          ...customValues(extra),
          settle_after_datetime:
            result.outcome === 'pending'
              ? addBusinessDays(this.clock.now(), this.config.achSettlementDays, this.config.timezone)
              : null,
        },
        result.outcome === 'pending' ? 'Bank payment submitted' : `Payment attempt: ${result.outcome}`,
      );
      const applications = await this.applier.write(tx.manager, id, amount, style, locked);
      await this.ledger.applicationsChanged(
        tx,
        ctx,
        applications.map((a) => a.invoice_id),
      );
      return id;
    });
  }
}

/** An item naming a scheduled payment without `applied` pays what is left of that payment. */
function withScheduledAmounts(style: ApplicationStyle, invoices: PayableInvoice[]): ApplicationStyle {
  if (style.kind !== 'list') return style;
  return {
    kind: 'list',
    items: style.items.map((item) => {
      if (item.applied !== null || item.invoice_schedule_id === null) return item;
      const invoice = invoices.find((i) => i.invoice_id === item.invoice_id);
      const entry = invoice?.schedules?.find((s) => s.invoice_schedule_id === item.invoice_schedule_id);
      return { ...item, applied: entry?.balance ?? null };
    }),
  };
}
