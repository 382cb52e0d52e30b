import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { ApiResult } from 'src/core/envelope/api-result';
import { resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { validateBody } from 'src/core/validation/validate-body';
import { CUSTOMER_REF } from 'src/customers/customers.service';
import { ApplicationStyle } from './allocation';
import { parsePositiveAmount } from './amount-input';
import { parseAppliedTo } from './applied-to-input';
import { amountDue, ChargeAttempts, ChargeFields, isAccepted, withScheduledAmounts } from './charge-attempts';
import { PayRequestDto } from './dto/pay-request.dto';
import { InvoiceApplier, MissingInvoice } from './invoice-applier';
import { assertPaymentKeyFree } from './payment-external-key';
import { PaymentSources } from './payment-sources';
import { customValues } from './transaction-writer';

/**
 * `POST /transaction?action=pay` and `POST /invoice/<id>?action=pay`: checks the request,
 * then charges through a payment attempt (ChargeAttempts: recorded before the gateway is
 * called, completed after) and answers with the transaction.
 */
@Injectable()
export class PaymentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sources: PaymentSources,
    private readonly applier: InvoiceApplier,
    private readonly attempts: ChargeAttempts,
  ) {}

  /** `missing`: the answer for a listed invoice that is gone (the invoice route's is a 404). */
  async pay(ctx: RequestContext, body: unknown, missing?: MissingInvoice): Promise<ApiResult> {
    const dto = validateBody(PayRequestDto, body);
    const m = this.dataSource.manager;
    const customerId = await resolvePayloadRef(m, CUSTOMER_REF, body as Record<string, unknown>, 'customer');
    if (customerId === undefined || customerId === null) {
      throw ApiError.badRequest(
        'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
      );
    }
    const style: ApplicationStyle = dto.applied_to === undefined ? { kind: 'none' } : parseAppliedTo(dto.applied_to);
    const amount = dto.amount === undefined ? null : parsePositiveAmount(dto.amount, 'amount');
    // Checked first without locks, so a bad request fails fast and stores nothing; the
    // attempt checks the balances and the key again under the locks.
    const invoices = await this.applier.check(m, customerId, style, amount, missing);
    if (amount === null) amountDue(withScheduledAmounts(style, invoices), invoices);
    this.sources.preflight(dto.paymethods);
    await assertPaymentKeyFree(m, dto.external_key);
    const { sources } = await this.sources.select(m, ctx, customerId, dto.paymethods, invoices);
    const fields: ChargeFields = {
      external_key: dto.external_key,
      memo: dto.memo,
      transaction_detail: dto.transaction_detail,
      ...customValues(dto),
    };
    const attempt = await this.attempts.open(ctx, { customerId, style, amount, sources, fields, missing });
    const { id, result, source } = await this.attempts.charge(outsideUnit('a card charged'), attempt);
    const details = {
      transaction_id: id,
      gateway_status: isAccepted(result) ? 1 : 0,
      gateway_err_code: result.errCode,
      gateway_err_detail: result.errDetail,
      gateway_msg: result.message,
      ...(source.creditcard_id !== null ? { creditcard_id: source.creditcard_id } : {}),
      ...(source.ach_id !== null ? { ach_id: source.ach_id } : {}),
      ...(source.tokenized_id !== null ? { tokenized_id: source.tokenized_id } : {}),
      // 3-D Secure: the payer confirms in the browser with the gateway's library (pending until then).
      ...(result.clientSecret ? { gateway_client_secret: result.clientSecret } : {}),
    };
    if (details.gateway_status === 0) {
      throw ApiError.badRequest(`This transaction could not be processed: ${result.message}`, details);
    }
    return new ApiResult(200, { id }, {}, details);
  }
}
