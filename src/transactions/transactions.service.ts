import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { applyListQuery, applyWhere } from 'src/core/query';
import { findByPathRef, RefTarget, resolvePayloadRef } from 'src/core/refs/ref-resolver';
import { parseInputDate, parseInputDatetime } from 'src/core/time/datetime-input';
import { WireFormat } from 'src/core/wire/wire-format';
import { CUSTOMER_REF } from 'src/customers/customers.service';
import { UnitOfWork } from 'src/database/unit-of-work';
import { parsePositiveAmount } from './amount-input';
import { applicationStyleOf } from './applied-to-input';
import { RecordTransactionDto } from './dto/record-transaction.dto';
import { Transaction } from './entities/transaction.entity';
import { InvoiceApplier } from './invoice-applier';
import { InvoiceLedger } from './invoice-ledger';
import { loadTransactionFigures } from './transaction-figures';
import { OFFLINE_METHOD_NAMES } from './transaction-kinds';
import { TransactionPresenter } from './transaction.presenter';
import { TRANSACTION_QUERY_FIELDS } from './transaction.query-fields';
import { customValues, TransactionWriter } from './transaction-writer';
import { lockCustomers } from 'src/customers/customer-lock';
import { assertPaymentKeyFree } from './payment-external-key';
import { WireTransaction } from './wire-transaction';

export const TRANSACTION_REF: RefTarget<Transaction> = {
  entity: Transaction,
  idColumn: 'transaction_id',
  resource: 'transaction',
};

/** Reads transactions, and records offline payments and credit memos (POST /transaction). */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly writer: TransactionWriter,
    private readonly applier: InvoiceApplier,
    private readonly ledger: InvoiceLedger,
    private readonly presenter: TransactionPresenter,
    private readonly wire: WireFormat,
  ) {}

  async record(ctx: RequestContext, dto: RecordTransactionDto, body: Record<string, unknown>): Promise<number> {
    const type = dto.transaction_type;
    if (type === undefined) throw ApiError.badRequest('A required parameter was missing: "transaction_type".');
    if (type !== 'pay' && type !== 'cre') {
      throw ApiError.badRequest('Field "transaction_type" must be "pay" (offline payment) or "cre" (credit memo).');
    }
    const method = dto.gateway_method;
    if (method === undefined) throw ApiError.badRequest('A required parameter was missing: "gateway_method".');
    if (type === 'cre' && method !== 'credit') {
      throw ApiError.badRequest('Field "gateway_method" must be "credit" for a credit memo.');
    }
    if (type === 'pay' && !(method in OFFLINE_METHOD_NAMES)) {
      throw ApiError.badRequest(
        `Field "gateway_method" must be one of ${Object.keys(OFFLINE_METHOD_NAMES).join(', ')} for an offline payment.`,
      );
    }
    if (dto.amount === undefined) throw ApiError.badRequest('A required parameter was missing: "amount".');
    const amount = parsePositiveAmount(dto.amount, 'amount');
    const gatewayStatus = dto.gateway_status ?? 1;
    if (gatewayStatus > 1) throw ApiError.badRequest('Field "gateway_status" must be 1 (success) or 0 (failure).');
    const style = applicationStyleOf(dto.applied_to, dto.auto_apply);
    const date = this.dateOf(dto);

    // Checks read outside the writing transaction, whose first statement must be the lock.
    const customerId = await this.customerOf(this.dataSource.manager, body);
    await this.applier.check(this.dataSource.manager, customerId, style, amount);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      await lockCustomers(tx, [customerId]);
      const locked = await this.applier.lock(tx, customerId, style);
      // Under the locks: what the check above saw may have been paid since.
      this.applier.assertFits(style, locked);
      await assertPaymentKeyFree(m, dto.external_key);
      const id = await this.writer.insert(
        tx,
        ctx,
        {
          customer_id: customerId,
          transaction_type: type,
          amount,
          status_str: gatewayStatus === 1 ? 'ok-successful' : 'fail-declined',
          gateway_status: gatewayStatus,
          gateway_id: dto.gateway_id ?? null,
          gateway_transid: dto.gateway_transid ?? null,
          gateway_method: method,
          gateway_msg: dto.gateway_msg ?? '',
          external_key: dto.external_key ?? null,
          transaction_method: dto.transaction_method ?? OFFLINE_METHOD_NAMES[method],
          transaction_detail: dto.transaction_detail ?? null,
          memo: dto.memo ?? null,
          ...customValues(dto),
          ...date,
        },
        type === 'cre' ? 'Credit memo recorded' : 'Offline payment recorded',
      );
      const applications = await this.applier.write(m, id, amount, style, locked);
      await this.ledger.applicationsChanged(
        tx,
        ctx,
        applications.map((a) => a.invoice_id),
      );
      return id;
    });
  }

  async findOne(ref: string): Promise<WireTransaction> {
    const m = this.dataSource.manager;
    const row = await findByPathRef(m, TRANSACTION_REF, ref);
    return (await this.presentMany(m, [row], true))[0];
  }

  async idOf(ref: string): Promise<number> {
    return (await findByPathRef(this.dataSource.manager, TRANSACTION_REF, ref)).transaction_id;
  }

  async list(query: Record<string, unknown>): Promise<WireTransaction[]> {
    const m = this.dataSource.manager;
    const qb = m.createQueryBuilder(Transaction, 't');
    applyListQuery(qb, TRANSACTION_QUERY_FIELDS, query, {
      timezone: this.wire.timezone,
      defaultOrder: { expr: 't.transaction_id', dir: 'ASC' },
    });
    return this.presentMany(m, await qb.getMany(), false);
  }

  async count(query: Record<string, unknown>): Promise<number> {
    const qb = this.dataSource.manager.createQueryBuilder(Transaction, 't');
    return applyWhere(qb, TRANSACTION_QUERY_FIELDS, query.where, this.wire.timezone).getCount();
  }

  private async presentMany(
    m: EntityManager,
    rows: Transaction[],
    single: boolean,
  ): Promise<WireTransaction[]> {
    const figures = await loadTransactionFigures(m, rows);
    return rows.map((row) => this.presenter.present(row, figures.get(row.transaction_id)!, single));
  }

  private async customerOf(m: EntityManager, body: Record<string, unknown>): Promise<number> {
    const id = await resolvePayloadRef(m, CUSTOMER_REF, body, 'customer');
    if (id === undefined || id === null) {
      throw ApiError.badRequest(
        'A required parameter was missing: "customer_id" (or customer_token / customer_external_key).',
      );
    }
    return id;
  }

  private dateOf(dto: RecordTransactionDto): Partial<Transaction> {
    const zone = this.wire.timezone;
    const result: Partial<Transaction> = {};
    if (dto.transaction_datetime !== undefined) {
      const at = parseInputDatetime(dto.transaction_datetime, zone);
      if (!at) throw ApiError.badRequest('Field "transaction_datetime" is not a valid datetime.');
      result.transaction_datetime = at;
      result.transaction_date = parseInputDate(dto.transaction_datetime, zone) ?? undefined;
    }
    if (dto.transaction_date !== undefined) {
      const date = parseInputDate(dto.transaction_date, zone);
      if (!date) throw ApiError.badRequest('Field "transaction_date" is not a valid date.');
      result.transaction_date = date;
    }
    return result;
  }
}
