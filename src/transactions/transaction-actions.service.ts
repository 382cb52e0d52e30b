import { Injectable } from '@nestjs/common';
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
import { UnitOfWork } from 'src/database/unit-of-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { allocate } from './allocation';
import { parsePositiveAmount } from './amount-input';
import { parseAppliedTo } from './applied-to-input';
import { DeclineDto } from './dto/transaction-actions.dto';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { InvoiceApplier } from './invoice-applier';
import { InvoiceLedger, PayableInvoice } from './invoice-ledger';
import { loadTransactionFigures } from './transaction-figures';
import { COUNTING_STATUSES } from './transaction-status';
import { TransactionWriter } from './transaction-writer';
import { TRANSACTION_REF } from './transactions.service';

/** Actions on one transaction: void, decline, refund, changeAppliedAmounts. */
@Injectable()
export class TransactionActionsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly gateway: PaymentGateway,
    private readonly applier: InvoiceApplier,
    private readonly ledger: InvoiceLedger,
    private readonly writer: TransactionWriter,
  ) {}

  /** Void: no gateway call (SPEC); its money stops counting on its invoices. */
  async void(ctx: RequestContext, ref: string): Promise<true> {
    const found = await findByPathRef(this.dataSource.manager, TRANSACTION_REF, ref);
    if (found.status_str === 'void-voided') throw ApiError.badRequest('This transaction is already void.');
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

  /**
   * Refund of a payment: `amount` defaults to what is left to refund, never more.
   * Unapplied money is given back first; the rest comes off its invoices (newest first).
   */
  async refund(ctx: RequestContext, ref: string, rawAmount: unknown): Promise<{ id: string }> {
    const payment = await findByPathRef(this.dataSource.manager, TRANSACTION_REF, ref);
    if (payment.transaction_type === 'cre') throw ApiError.badRequest('A credit memo cannot be refunded.');
    if (payment.transaction_type !== 'pay') throw ApiError.badRequest('Only a payment can be refunded.');
    if (payment.status_str !== 'ok-successful') throw notRefundable();
    const asked = rawAmount === undefined ? null : parsePositiveAmount(rawAmount, 'amount');
    const applications = await this.dataSource.manager.find(TransactionApplied, {
      where: { transaction_id: payment.transaction_id },
    });
    const invoiceIds = applications.map((a) => a.invoice_id);

    // Checked first without locks, so a bad request fails fast and writes nothing.
    await this.refundPlan(this.dataSource.manager, payment, asked);
    const id = await this.uow.run(
      async (tx) => {
        const m = tx.manager;
        // The payment row first (a locking read, as changeAppliedAmounts and void take it),
        // then its invoices: two refunds at once never exceed what was paid, and a void
        // that committed since the check above is seen.
        if ((await this.lockTransaction(m, payment.transaction_id)) !== 'ok-successful') throw notRefundable();
        await this.ledger.lock(tx, invoiceIds);
        const planned = await this.refundPlan(m, payment, asked);
        // Under the payment's lock, so two refunds at once never give back more than was paid.
        const result =
          payment.gateway_id !== null ? await this.gateway.refund(payment.gateway_transid ?? '', planned.amount) : null;
        if (result && result.outcome !== 'success') {
          throw ApiError.badRequest(`This refund could not be processed: ${result.message}`);
        }
        const refundId = await this.writer.insert(
          tx,
          ctx,
          {
            customer_id: payment.customer_id,
            transaction_type: 'ref',
            amount: planned.amount.negated(),
            status_str: 'ok-successful',
            gateway_status: 1,
            parent_transaction_id: payment.transaction_id,
            gateway_id: payment.gateway_id,
            gateway_type: payment.gateway_type,
            gateway_nickname: payment.gateway_nickname,
            gateway_transid: payment.gateway_transid,
            gateway_method: payment.gateway_method,
            transaction_method: payment.transaction_method,
            transaction_detail: payment.transaction_detail,
            creditcard_id: payment.creditcard_id,
            ach_id: payment.ach_id,
            tokenized_id: payment.tokenized_id,
          },
          `Refund of transaction ${payment.transaction_id}`,
        );
        if (planned.fromInvoices.length) {
          await m.insert(
            TransactionApplied,
            planned.fromInvoices.map((a) => ({
              transaction_id: refundId,
              invoice_id: a.invoice_id,
              invoice_schedule_id: null,
              invoice_customer_id: a.invoice_customer_id,
              applied: a.amount.negated(),
              memo: null,
              write_datetime: this.clock.now(),
            })),
          );
        }
        await this.revisions.record(
          tx,
          ctx,
          'transaction',
          payment.transaction_id,
          `Refunded by transaction ${refundId}`,
        );
        await this.ledger.applicationsChanged(
          tx,
          ctx,
          planned.fromInvoices.map((a) => a.invoice_id),
        );
        return refundId;
        // The gateway refunds inside: this transaction must never run twice.
      },
      { once: true },
    );
    return { id: String(id) };
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
      // Lock first (see InvoiceLedger.lock): the invoices named and those applied to now (a locking read).
      // Under its lock: a void or decline that committed since the check above is seen.
      const status = await this.lockTransaction(m, found.transaction_id);
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
    const applications = await this.dataSource.manager.find(TransactionApplied, {
      where: { transaction_id: found.transaction_id },
    });
    const invoiceIds = [...new Set(applications.map((a) => a.invoice_id))];
    await this.uow.run(async (tx) => {
      const m = tx.manager;
      // Locks first, in the order every transaction action takes them: its row, then its invoices.
      await this.lockTransaction(m, found.transaction_id);
      const invoices = invoiceIds.length ? await this.ledger.lock(tx, invoiceIds) : [];
      // Its refunds would keep counting on the invoices without the payment they came from.
      if (await this.hasCountingRefunds(m, found.transaction_id)) {
        throw ApiError.badRequest('This payment has refunds: void them first.');
      }
      if (found.transaction_type === 'ref' && COUNTING_STATUSES.includes(found.status_str as never)) {
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

  private async hasCountingRefunds(m: EntityManager, id: number): Promise<boolean> {
    const refunds = await m.count(Transaction, {
      where: { parent_transaction_id: id, transaction_type: 'ref', status_str: In([...COUNTING_STATUSES]) },
    });
    return refunds > 0;
  }

  /** The transaction's applications, read under their row locks on MySQL (its own row is locked before). */
  private async currentApplications(m: EntityManager, id: number): Promise<TransactionApplied[]> {
    const qb = m.createQueryBuilder(TransactionApplied, 'ta').where('ta.transaction_id = :id', { id });
    if (this.uow.isMysql) qb.setLock('pessimistic_write');
    return qb.getMany();
  }

  /** Locks the row (MySQL) and returns its status as of now. */
  private async lockTransaction(m: EntityManager, id: number): Promise<string | undefined> {
    const qb = m
      .createQueryBuilder(Transaction, 't')
      .select(['t.transaction_id', 't.status_str'])
      .where('t.transaction_id = :id', { id });
    if (this.uow.isMysql) qb.setLock('pessimistic_write');
    return (await qb.getOne())?.status_str;
  }

  /** How much to refund, and from which invoices (after the unapplied part). */
  private async refundPlan(
    m: EntityManager,
    payment: Transaction,
    asked: Decimal | null,
  ): Promise<{
    amount: Decimal;
    fromInvoices: Array<{ invoice_id: number; invoice_customer_id: number; amount: Decimal }>;
  }> {
    const refunds = await m.find(Transaction, {
      where: {
        parent_transaction_id: payment.transaction_id,
        transaction_type: 'ref',
        status_str: In([...COUNTING_STATUSES]),
      },
    });
    const refunded = refunds.reduce((sum, r) => sum.plus(r.amount.abs()), ZERO);
    const left = payment.amount.minus(refunded);
    if (left.lte(0)) throw ApiError.badRequest('This payment has already been refunded in full.');
    const amount = asked ?? left;
    if (amount.gt(left)) {
      throw ApiError.badRequest(
        `Field "amount": ${centsText(amount)} is more than the ${centsText(left)} left to refund.`,
      );
    }
    const figures = (await loadTransactionFigures(m, [payment])).get(payment.transaction_id)!;
    const fromInvoicesTotal = Decimal.max(ZERO, amount.minus(figures.unapplied));
    // What each invoice still holds of this payment, net of earlier refunds.
    const refundApps = refunds.length
      ? await m.find(TransactionApplied, { where: { transaction_id: In(refunds.map((r) => r.transaction_id)) } })
      : [];
    const held = [...figures.applications].reverse().map((a) => {
      const back = refundApps.filter((r) => r.invoice_id === a.invoice_id).reduce((s, r) => s.plus(r.applied), ZERO);
      return {
        invoice_id: a.invoice_id,
        invoice_customer_id: a.invoice_customer_id,
        date: '',
        balance: a.applied.plus(back),
      };
    });
    const customers = new Map(held.map((h) => [h.invoice_id, h.invoice_customer_id]));
    const fromInvoices = allocate(
      fromInvoicesTotal,
      {
        kind: 'list',
        items: held.map((h) => ({ invoice_id: h.invoice_id, invoice_schedule_id: null, applied: null })),
      },
      held,
    ).map((a) => ({
      invoice_id: a.invoice_id,
      invoice_customer_id: customers.get(a.invoice_id) ?? 0,
      amount: a.applied,
    }));
    return { amount, fromInvoices };
  }
}

function notReapplicable(): ApiError {
  return ApiError.badRequest('Applied amounts can be changed only on a successful or pending transaction.');
}

function notRefundable(): ApiError {
  return ApiError.badRequest('Only a successful payment can be refunded (a pending bank payment can be voided).');
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
