import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import Decimal from 'decimal.js';
import { DataSource, EntityManager, In } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { centsText } from 'src/core/money/money-format';
import { modStamps } from 'src/core/context/record-stamps';
import { lockForUpdate } from 'src/database/dialect';
import { UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { parsePositiveAmount } from './amount-input';
import { parseAppliedTo } from './applied-to-input';
import { DeclineDto } from './dto/transaction-actions.dto';
import { PaymentAttempt } from './entities/payment-attempt.entity';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { InvoiceApplier } from './invoice-applier';
import { InvoiceLedger, PayableInvoice } from './invoice-ledger';
import { loadTransactionFigures } from './transaction-figures';
import { COUNTING_STATUSES } from './transaction-status';
import { lockTransactionRow } from './transaction-lock';
import { lockCustomers } from 'src/customers/customer-lock';
import { RefundAttempts } from './refund-attempts';
import { TRANSACTION_REF } from './transactions.service';

/** Actions on one transaction: void, decline, refund, changeAppliedAmounts. */
@Injectable()
export class TransactionActionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly applier: InvoiceApplier,
    private readonly ledger: InvoiceLedger,
    private readonly refunds: RefundAttempts,
    private readonly gateway: PaymentGateway,
  ) {}

  /** Void: no gateway call (SPEC); its money stops counting on its invoices. */
  async void(ctx: RequestContext, ref: string): Promise<true> {
    const found = await findByPathRef(this.dataSource.manager, TRANSACTION_REF, ref);
    if (found.status_str === 'void-voided') throw ApiError.badRequest('This transaction is already void.');
    // The gateway cancels the charge first, so it can no longer collect; one it cannot
    // cancel any more (Stripe: succeeded, or a bank debit under way) stays as it is.
    if (
      found.transaction_type === 'pay' &&
      found.gateway_transid &&
      found.gateway_type === this.gateway.identity.gatewayType
    ) {
      const result = await this.gateway.void(outsideUnit('a payment voided'), found.gateway_transid);
      if (result.outcome !== 'success')
        throw ApiError.badRequest(`This payment could not be voided: ${result.message}`);
    }
    await this.changeStatus(
      ctx,
      found,
      { status_str: 'void-voided', void_datetime: this.clock.now() },
      'Transaction voided',
    );
    return true;
  }

  async decline(ctx: RequestContext, ref: string, dto: DeclineDto): Promise<true> {
    const found = await findByPathRef(this.dataSource.manager, TRANSACTION_REF, ref);
    await this.changeStatus(
      ctx,
      found,
      {
        status_str: 'fail-declined',
        gateway_status: 0,
        ...(dto.gateway_msg !== undefined ? { gateway_msg: dto.gateway_msg ?? '' } : {}),
        ...(dto.gateway_err_code !== undefined ? { gateway_err_code: dto.gateway_err_code } : {}),
        ...(dto.gateway_err_detail !== undefined ? { gateway_err_detail: dto.gateway_err_detail } : {}),
      },
      'Transaction declined',
    );
    return true;
  }

  /** Refund of a payment (RefundAttempts: recorded before the gateway refunds, completed after). */
  refund(ctx: RequestContext, ref: string, rawAmount: unknown): Promise<{ id: number }> {
    const asked = rawAmount === undefined ? null : parsePositiveAmount(rawAmount, 'amount');
    return this.refunds.refund(ctx, ref, asked);
  }

  /** SPEC: the list replaces every application; an invoice left out loses it; `[]` unapplies all. */
  async changeAppliedAmounts(ctx: RequestContext, ref: string, rawAppliedTo: unknown): Promise<true> {
    if (rawAppliedTo === undefined) throw ApiError.badRequest('A required parameter was missing: "applied_to".');
    const style = parseAppliedTo(rawAppliedTo);
    const found = await findByPathRef(this.dataSource.manager, TRANSACTION_REF, ref);
    if (found.transaction_type !== 'pay' && found.transaction_type !== 'cre') {
      throw ApiError.badRequest('Applied amounts can be changed only on payments and credits.');
    }
    if (!COUNTING_STATUSES.includes(found.status_str as never)) throw notReapplicable();
    await this.applier.check(
      this.dataSource.manager,
      found.customer_id,
      { kind: 'list', items: style.items.map((i) => ({ ...i, applied: null })) },
      null,
    );
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      await lockCustomers(tx, [found.customer_id]);
      // Then (see InvoiceLedger.lock): the invoices named and those applied to now (a locking read).
      // Under its lock: a void or decline that committed since the check above is seen.
      const status = await lockTransactionRow(m, found.transaction_id);
      if (!COUNTING_STATUSES.includes(status as never)) throw notReapplicable();
      const current = await this.currentApplications(m, found.transaction_id);
      const locked = await this.applier.lock(
        tx,
        found.customer_id,
        style,
        current.map((a) => a.invoice_id),
      );
      // This transaction's own applications are about to go: they do not limit the new ones.
      const own = new Map<number, Decimal>();
      for (const a of current) own.set(a.invoice_id, (own.get(a.invoice_id) ?? ZERO).plus(a.applied));
      const freed = locked.map((i) => ({ ...i, balance: i.balance.plus(own.get(i.invoice_id) ?? ZERO) }));
      const figures = (await loadTransactionFigures(m, [found])).get(found.transaction_id)!;
      const available = figures.unapplied.plus(figures.applied);
      style.items.forEach((item, i) => {
        const invoice = freed.find((f) => f.invoice_id === item.invoice_id);
        if (item.applied && invoice && item.applied.gt(invoice.balance)) {
          throw ApiError.badRequest(
            `Field "applied_to[${i}].applied": ${centsText(item.applied)} is more than the balance of invoice ${item.invoice_id} (${centsText(invoice.balance)}).`,
          );
        }
      });
      const total = style.items.reduce((sum, item) => sum.plus(item.applied ?? ZERO), ZERO);
      if (total.gt(available)) {
        throw ApiError.badRequest(
          `Field "applied_to": the amounts applied (${centsText(total)}) add up to more than the transaction's ${centsText(available)}.`,
        );
      }
      await m.delete(TransactionApplied, { transaction_id: found.transaction_id });
      const applications = await this.applier.write(m, found.transaction_id, available, style, freed);
      await this.assertRefundsStayCovered(m, found.transaction_id, applications);
      await m.update(Transaction, found.transaction_id, modStamps(ctx, this.clock.now()));
      await this.revisions.record(tx, ctx, 'transaction', found.transaction_id, 'Applied amounts changed');
      await this.ledger.applicationsChanged(tx, ctx, [
        ...new Set([...current.map((a) => a.invoice_id), ...applications.map((a) => a.invoice_id)]),
      ]);
    });
    return true;
  }

  /** Moves a transaction to a status that stops its money counting, in one transaction. */
  private async changeStatus(
    ctx: RequestContext,
    found: Transaction,
    changes: Partial<Transaction>,
    note: string,
  ): Promise<void> {
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      // Locks first, in the order every money write takes them: the customer, the
      // transaction's row, its applications, then its invoices.
      await lockCustomers(tx, [found.customer_id]);
      const status = await lockTransactionRow(m, found.transaction_id);
      // Under the lock: of two voids at once, the second sees the first.
      if (changes.status_str === 'void-voided' && status === 'void-voided') {
        throw ApiError.badRequest('This transaction is already void.');
      }
      const applications = await this.currentApplications(m, found.transaction_id);
      const invoiceIds = [...new Set(applications.map((a) => a.invoice_id))];
      const invoices = invoiceIds.length ? await this.ledger.lock(tx, invoiceIds) : [];
      // Its refunds would keep counting on the invoices without the payment they came from.
      if (await this.hasCountingRefunds(m, found.transaction_id)) {
        throw ApiError.badRequest('This payment has refunds: void them first.');
      }
      if (found.transaction_type === 'ref' && COUNTING_STATUSES.includes(status as never)) {
        assertRefundCanStop(applications, invoices, changes.status_str === 'void-voided' ? 'voided' : 'declined');
      }
      await m.update(Transaction, found.transaction_id, { ...changes, ...modStamps(ctx, this.clock.now()) });
      await this.revisions.record(tx, ctx, 'transaction', found.transaction_id, note);
      await this.ledger.applicationsChanged(
        tx,
        ctx,
        applications.map((a) => a.invoice_id),
      );
    });
  }

  /**
   * What a payment's refunds took off an invoice must stay applied there, or the invoice
   * would owe more than its total (and the money would count twice on the others).
   */
  private async assertRefundsStayCovered(
    m: EntityManager,
    id: number,
    applications: Array<{ invoice_id: number; applied: Decimal }>,
  ): Promise<void> {
    const refunds = await m.find(Transaction, {
      where: { parent_transaction_id: id, transaction_type: 'ref', status_str: In([...COUNTING_STATUSES]) },
      select: { transaction_id: true },
    });
    if (!refunds.length) return;
    const taken = await m.find(TransactionApplied, {
      where: { transaction_id: In(refunds.map((r) => r.transaction_id)) },
    });
    const back = new Map<number, Decimal>();
    for (const a of taken) back.set(a.invoice_id, (back.get(a.invoice_id) ?? ZERO).minus(a.applied));
    for (const [invoiceId, refunded] of back) {
      const kept = applications.filter((a) => a.invoice_id === invoiceId).reduce((s, a) => s.plus(a.applied), ZERO);
      if (kept.lt(refunded)) {
        throw ApiError.badRequest(
          `Field "applied_to": invoice ${invoiceId} must keep at least ${centsText(refunded)} of this payment (refunded from it).`,
        );
      }
    }
  }

  /** Refunds that count, or one still pending at the gateway (it will count). */
  private async hasCountingRefunds(m: EntityManager, id: number): Promise<boolean> {
    const refunds = await m.count(Transaction, {
      where: { parent_transaction_id: id, transaction_type: 'ref', status_str: In([...COUNTING_STATUSES]) },
    });
    const pending = await m.count(PaymentAttempt, {
      where: { parent_transaction_id: id, kind: 'refund', status: 'pending' },
    });
    return refunds + pending > 0;
  }

  /** The transaction's applications, read under their row locks on MySQL (its own row is locked before). */
  private async currentApplications(m: EntityManager, id: number): Promise<TransactionApplied[]> {
    const qb = m.createQueryBuilder(TransactionApplied, 'ta').where('ta.transaction_id = :id', { id });
    lockForUpdate(qb);
    return qb.getMany();
  }
}

function notReapplicable(): ApiError {
  return ApiError.badRequest('Applied amounts can be changed only on a successful or pending transaction.');
}

/**
 * A refund that stops counting gives its money back to the invoices: each must still owe
 * at least that much (one paid again since, or void, would be paid more than its total).
 */
function assertRefundCanStop(
  applications: TransactionApplied[],
  invoices: PayableInvoice[],
  verb: 'voided' | 'declined',
): void {
  for (const invoice of invoices) {
    const back = applications
      .filter((a) => a.invoice_id === invoice.invoice_id)
      .reduce((sum, a) => sum.minus(a.applied), ZERO);
    if (back.gt(invoice.balance)) {
      throw ApiError.badRequest(
        `This refund cannot be ${verb}: invoice ${invoice.invoice_id} would be paid more than its total.`,
      );
    }
  }
}
