import { Injectable } from '@nestjs/common';
import { moneyToJson } from 'src/core/money/decimal';
import { WireFormat } from 'src/core/wire/wire-format';
import { ReferenceService } from 'src/reference/reference.service';
import { Transaction } from './entities/transaction.entity';
import { TransactionFigures } from './transaction-figures';
import { TRANSACTION_TYPE_NAMES } from './transaction-kinds';
import { TRANSACTION_STATUSES, TransactionStatusStr } from './transaction-status';
import { customFields5 } from 'src/core/wire/custom-fields';
import { WireTransaction } from './wire-transaction';

/** The wire shape of a transaction (field order as recorded, then the other read-only fields). */
@Injectable()
export class TransactionPresenter {
  constructor(
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
  ) {}

  present(t: Transaction, figures: TransactionFigures, single: boolean): WireTransaction {
    const currency = this.reference.currency(t.currency_id);
    const status = TRANSACTION_STATUSES[t.status_str as TransactionStatusStr];
    const wire: WireTransaction = {
      transaction_id: t.transaction_id,
      gateway_id: t.gateway_id,
      currency_id: t.currency_id,
      external_key: t.external_key,
      token: t.token,
      transaction_date: t.transaction_date,
      gateway_status: t.gateway_status,
      gateway_transid: t.gateway_transid,
      gateway_msg: t.gateway_msg,
      amount: moneyToJson(t.amount),
      fee: moneyToJson(t.fee),
      transaction_type: t.transaction_type,
      transaction_method: t.transaction_method,
      transaction_detail: t.transaction_detail,
      transaction_datetime: this.wire.datetime(t.transaction_datetime),
      transaction_ipaddr: t.transaction_ipaddr,
      void_datetime: this.wire.datetime(t.void_datetime),
      transaction_type_name: TRANSACTION_TYPE_NAMES[t.transaction_type],
      currency_symbol: currency?.currency_symbol ?? null,
      currency_iso4217: currency?.currency_iso4217 ?? null,
      customer_id: t.customer_id,
      parent_transaction_id: t.parent_transaction_id,
      transaction_batch_id: null,
      brand_id: t.brand_id,
      gateway_type: t.gateway_type,
      gateway_nickname: t.gateway_nickname,
      gateway_method: t.gateway_method,
      gateway_err_code: t.gateway_err_code,
      gateway_err_detail: t.gateway_err_detail,
      gateway_opts: null,
      creditcard_id: t.creditcard_id,
      ach_id: t.ach_id,
      tokenized_id: t.tokenized_id,
      applied: moneyToJson(figures.applied),
      unapplied: moneyToJson(figures.unapplied),
      transaction_status_name: status.name,
      transaction_status_str: t.status_str,
      transaction_status_state: status.state,
      memo: t.memo,
      ...customFields5(t),
      url_self: this.wire.apiUrl('transaction', t.transaction_id),
    };
    if (!single) return wire;
    wire.applied_to = figures.applications.map((a) => ({
      transaction_applied_id: a.transaction_applied_id,
      transaction_id: a.transaction_id,
      invoice_id: a.invoice_id,
      invoice_schedule_id: a.invoice_schedule_id,
      applied: moneyToJson(a.applied),
      custom_1: a.custom_1 ?? null,
      custom_2: a.custom_2 ?? null,
      custom_3: a.custom_3 ?? null,
      custom_4: a.custom_4 ?? null,
      custom_5: a.custom_5 ?? null,
      memo: a.memo,
    }));
    if (t.transaction_type === 'ref') wire.payments = t.parent_transaction_id ? [t.parent_transaction_id] : [];
    else wire.refunds = figures.refundIds;
    return wire;
  }
}
