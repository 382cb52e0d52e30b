import { Injectable } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import Decimal from 'decimal.js';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { ZERO } from 'src/core/money/decimal';
import { centsText } from 'src/core/money/money-format';
import { randomToken } from 'src/core/refs/random-token';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { RevisionService } from 'src/core/revisions/revision.service';
import { UnitOfWork } from 'src/database/unit-of-work';
import { assertFitsCurrency } from 'src/payments/currency-units';
import { ReferenceService } from 'src/reference/reference.service';
import { GatewayResult, PaymentGateway } from 'src/payments/payment-gateway';
import { allocate } from './allocation';
import { lockAttempt } from './charge-attempts';
import { lockCustomers } from 'src/customers/customer-lock';
import { PaymentAttempt } from './entities/payment-attempt.entity';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { InvoiceLedger } from './invoice-ledger';
import { loadTransactionFigures } from './transaction-figures';
import { lockTransactionRow } from './transaction-lock';
import { COUNTING_STATUSES } from './transaction-status';
import { TransactionWriter } from './transaction-writer';
import { TRANSACTION_REF } from './transactions.service';

interface RefundPlan {
  amount: Decimal;
  fromInvoices: Array<{ invoice_id: number; invoice_customer_id: number; amount: Decimal }>;
}

/**
 * Refund of a payment, as a charge is made: a pending refund attempt (amount and the
 * invoices it comes off) committed under the payment's lock, the gateway refund after
 * the commit with the attempt's reference, then the refund transaction written in another
 * unit. While pending, the attempt's amount counts as refunded, so two refunds at once
 * never give back more than was paid; a crash between leaves it for the sweeper.
 */
@Injectable()
export class RefundAttempts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly revisions: RevisionService,
    private readonly gateway: PaymentGateway,
    private readonly ledger: InvoiceLedger,
    private readonly writer: TransactionWriter,
    private readonly reference: ReferenceService,
  ) {}

  /** `amount` defaults to what is left to refund, never more; unapplied money goes back first. */
  async refund(ctx: RequestContext, ref: string, rawAmount: Decimal | null): Promise<{ id: number }> {
    const m = this.dataSource.manager;
    const payment = await findByPathRef(m, TRANSACTION_REF, ref);
    if (payment.transaction_type === 'cre') throw ApiError.badRequest('A credit memo cannot be refunded.');
    if (payment.transaction_type !== 'pay') throw ApiError.badRequest('Only a payment can be refunded.');
    if (payment.status_str !== 'ok-successful') throw notRefundable();
    // Checked first without locks, so a bad request fails fast and writes nothing.
    const currency = this.reference.currencyCode(payment.currency_id);
    const planned = await this.plan(m, payment, rawAmount);
    // A refund goes back in the payment's currency, in whole units of it (never rounded).
    assertFitsCurrency(planned.amount, currency, 'amount');
    const attempt = await this.open(ctx, payment, rawAmount);
    const result =
      payment.gateway_id !== null
        ? await this.gateway.refund(
            outsideUnit('a payment refunded'),
            payment.gateway_transid ?? '',
            attempt.amount,
            currency,
            attempt.reference,
          )
        : null;
    if (result && result.outcome !== 'success') {
      await this.fail(attempt);
      throw ApiError.badRequest(`This refund could not be processed: ${result.message}`);
    }
    return { id: await this.complete(attempt) };
  }

  /** Ends a refund the gateway refused or never received: what it held counts again. */
  fail(attempt: PaymentAttempt): Promise<void> {
    return this.uow.run(async (tx) => {
      const current = await lockAttempt(tx.manager, attempt.payment_attempt_id);
      if (current.status !== 'pending') return;
      await tx.manager.update(PaymentAttempt, attempt.payment_attempt_id, {
        status: 'failed',
        resolved_datetime: this.clock.now(),
      });
    });
  }

  /** Writes the refund transaction of an attempt the gateway carried out (once, whoever comes first). */
  complete(attempt: PaymentAttempt): Promise<number> {
    const ctx = (attempt.request as { ctx: RequestContext }).ctx;
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      await lockCustomers(tx, [attempt.customer_id]);
      const paymentId = attempt.parent_transaction_id!;
      await lockTransactionRow(m, paymentId);
      const current = await lockAttempt(m, attempt.payment_attempt_id);
      if (current.transaction_id !== null) return current.transaction_id;
      const payment = await m.findOneByOrFail(Transaction, { transaction_id: paymentId });
      await this.lockInvoicesOf(tx.manager, paymentId, (ids) => this.ledger.lock(tx, ids));
      const planned = await this.plan(m, payment, attempt.amount, attempt.payment_attempt_id);
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
      await m.update(PaymentAttempt, attempt.payment_attempt_id, {
        status: 'completed',
        transaction_id: refundId,
        resolved_datetime: this.clock.now(),
      });
      return refundId;
    });
  }

  /** The sweeper's verdict on a refund left pending: the gateway's answer for its reference. */
  async resolve(attempt: PaymentAttempt, result: GatewayResult | null): Promise<void> {
    if (result?.outcome === 'success') await this.complete(attempt);
    else await this.fail(attempt);
  }

  /**
   * A refund the gateway made itself (in its dashboard), told by its webhook: `total` is
   * all it has refunded of the payment; what this server has not recorded (or has in
   * flight) of it is recorded as the API's refund would record it, without calling the
   * gateway. Null when nothing is missing (a redelivery, or a refund made here).
   */
  async recordMadeByGateway(ctx: RequestContext, payment: Transaction, total: Decimal): Promise<number | null> {
    const missing = total.minus(await this.refundedSoFar(this.dataSource.manager, payment.transaction_id));
    if (missing.lte(0)) return null;
    return this.complete(await this.open(ctx, payment, Decimal.min(missing, payment.amount)));
  }

  /** Step 1: the committed pending attempt, under the customer's and the payment's locks. */
  private open(ctx: RequestContext, payment: Transaction, asked: Decimal | null): Promise<PaymentAttempt> {
    const reference = `${randomToken(24)}-0`;
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      // The customer, the payment row (a void that committed since the check is seen), its invoices.
      await lockCustomers(tx, [payment.customer_id]);
      if ((await lockTransactionRow(m, payment.transaction_id)) !== 'ok-successful') throw notRefundable();
      await this.lockInvoicesOf(m, payment.transaction_id, (ids) => this.ledger.lock(tx, ids));
      const planned = await this.plan(m, payment, asked);
      return m.save(
        m.create(PaymentAttempt, {
          reference,
          kind: 'refund',
          status: 'pending',
          customer_id: payment.customer_id,
          amount: planned.amount,
          parent_transaction_id: payment.transaction_id,
          external_key: null,
          applications: planned.fromInvoices.map((a) => ({
            invoice_id: a.invoice_id,
            invoice_schedule_id: null,
            invoice_customer_id: a.invoice_customer_id,
            applied: a.amount.toFixed(2), // stop-check: deliberate, decimal.js's toFixed: the exact amount as a string
          })),
          request: { ctx },
          source_index: 0,
          transaction_id: null,
          created_datetime: this.clock.now(),
          resolved_datetime: null,
        }),
      );
    });
  }

  private async lockInvoicesOf(
    m: EntityManager,
    paymentId: number,
    lock: (ids: number[]) => Promise<unknown>,
  ): Promise<void> {
    const applications = await m.find(TransactionApplied, { where: { transaction_id: paymentId } });
    const ids = [...new Set(applications.map((a) => a.invoice_id))];
    if (ids.length) await lock(ids);
  }

  /**
   * How much to refund, and from which invoices (after the unapplied part). Pending
   * refund attempts other than `ownAttemptId` count as refunded already.
   */
  private async plan(
    m: EntityManager,
    payment: Transaction,
    asked: Decimal | null,
    ownAttemptId?: number,
  ): Promise<RefundPlan> {
    const refunds = await this.refundsOf(m, payment.transaction_id);
    const refunded = await this.refundedSoFar(m, payment.transaction_id, ownAttemptId, refunds);
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

  private refundsOf(m: EntityManager, paymentId: number): Promise<Transaction[]> {
    return m.find(Transaction, {
      where: { parent_transaction_id: paymentId, transaction_type: 'ref', status_str: In([...COUNTING_STATUSES]) },
    });
  }

  /** Refunded of a payment: its refunds, and the refund attempts in flight other than `ownAttemptId`. */
  private async refundedSoFar(
    m: EntityManager,
    paymentId: number,
    ownAttemptId?: number,
    refunds?: Transaction[],
  ): Promise<Decimal> {
    const done = refunds ?? (await this.refundsOf(m, paymentId));
    const pending = await m.find(PaymentAttempt, {
      where: {
        parent_transaction_id: paymentId,
        kind: 'refund',
        status: 'pending',
        ...(ownAttemptId !== undefined ? { payment_attempt_id: Not(ownAttemptId) } : {}),
      },
      select: { payment_attempt_id: true, amount: true },
    });
    return [...done.map((r) => r.amount.abs()), ...pending.map((p) => p.amount)].reduce((sum, a) => sum.plus(a), ZERO);
  }
}

function notRefundable(): ApiError {
  return ApiError.badRequest('Only a successful payment can be refunded (a pending bank payment can be voided).');
}
