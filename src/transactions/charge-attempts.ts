import { Inject, Injectable, Logger } from '@nestjs/common';
import { OutsideUnit } from 'src/database/outside-call-guard';
import Decimal from 'decimal.js';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { sumMoney } from 'src/core/money/decimal';
import { randomToken } from 'src/core/refs/random-token';
import { beforeDeadline, DEADLINE_CAME, runOutsideScopes } from 'src/database/call-scope';
import { lockForUpdate } from 'src/database/dialect';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { addBusinessDays } from 'src/payments/business-days';
import { assertFitsCurrency } from 'src/payments/currency-units';
import { ReferenceService } from 'src/reference/reference.service';
import { Customer } from 'src/customers/entities/customer.entity';
import { GatewayOutcomeUnknown, GatewayResult, PaymentGateway } from 'src/payments/payment-gateway';
import { allocate, ApplicationStyle } from './allocation';
import { pendingReservations, withoutReserved } from './attempt-reservations';
import { lockCustomers } from 'src/customers/customer-lock';
import { PaymentAttempt } from './entities/payment-attempt.entity';
import { InvoiceApplier, MissingInvoice } from './invoice-applier';
import { InvoiceLedger, PayableInvoice } from './invoice-ledger';
import { PaymentSource } from './payment-sources';
import { assertPaymentKeyFree } from './payment-external-key';
import { customValues, TransactionWriter } from './transaction-writer';

const STATUS_OF: Readonly<Record<GatewayResult['outcome'], string>> = {
  success: 'ok-successful',
  pending: 'ok-pending',
  declined: 'fail-declined',
  error: 'fail-error',
};

/** What a charge records besides the gateway's answer (the pay request's fields). */
export interface ChargeFields {
  external_key?: string | null;
  memo?: string | null;
  transaction_detail?: string | null;
  [custom: `custom_${number}`]: string | null | undefined;
}

/** What an attempt keeps to record its transaction later, even from the sweeper. */
interface ChargeRequest {
  ctx: RequestContext;
  sources: PaymentSource[];
  fields: ChargeFields;
  /** The currency the money moves in (absent on attempts opened before it was kept: the customer's). */
  currency_id?: number;
}

/** A charge to open: the payer, the invoices and amounts asked for, the sources to try. */
export interface ChargeOrder {
  customerId: number;
  style: ApplicationStyle;
  /** The amount sent; without it, what the listed invoices (or scheduled payments) owe. */
  amount: Decimal | null;
  sources: PaymentSource[];
  fields: ChargeFields;
  /** The answer when a listed invoice is gone by the time it is locked (default: the field's 400). */
  missing?: MissingInvoice;
}

export function isAccepted(result: GatewayResult): boolean {
  return result.outcome === 'success' || result.outcome === 'pending';
}

/**
 * A card or bank charge in three steps, never a gateway call without a record:
 * 1. `open`: a unit of work reserves the debt and the external key under the customer's
 *    and the invoices' locks and commits a pending PaymentAttempt (a second request for
 *    the same balance is refused here, before anything is charged);
 * 2. the gateway is called, outside any unit, with the attempt's reference;
 * 3. `record`: another unit writes the transaction (and its applications) from the
 *    answer and resolves the attempt (or moves it to the next source after a decline).
 * A crash between 2 and 3 leaves the attempt pending for PaymentAttemptSweeper.
 */
@Injectable()
export class ChargeAttempts {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly gateway: PaymentGateway,
    private readonly applier: InvoiceApplier,
    private readonly ledger: InvoiceLedger,
    private readonly writer: TransactionWriter,
    private readonly reference: ReferenceService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Step 1: the committed pending attempt, or the 400 a second request for a paid debt gets.
   * `claim` runs in the same unit once the attempt is saved (automatic collection links its
   * row to the attempt there, so the claim and the attempt commit together or not at all).
   */
  open(
    ctx: RequestContext,
    order: ChargeOrder,
    claim?: (tx: Tx, attempt: PaymentAttempt) => Promise<void>,
  ): Promise<PaymentAttempt> {
    const base = randomToken(24);
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      await lockCustomers(tx, [order.customerId]);
      const ids = order.style.kind === 'list' ? order.style.items.map((i) => i.invoice_id) : [];
      if (ids.length) await this.ledger.lock(tx, ids);
      // Read after the locks: everything committed before, and every pending reservation.
      const invoices = withoutReserved(ids.length ? await this.ledger.read(m, ids) : [], await pendingReservations(m));
      const style = withScheduledAmounts(order.style, invoices);
      this.applier.assertFits(style, invoices, order.missing);
      const amount = order.amount ?? amountDue(style, invoices);
      const currencyId = await this.currencyOf(m, order.customerId, invoices);
      assertFitsCurrency(amount, this.reference.currencyCode(currencyId), 'amount');
      await assertPaymentKeyFree(m, order.fields.external_key);
      const applications = allocate(
        amount,
        style,
        invoices.filter((i) => !i.is_void),
      );
      const customers = new Map(invoices.map((i) => [i.invoice_id, i.customer_id]));
      const request: ChargeRequest = { ctx, sources: order.sources, fields: order.fields, currency_id: currencyId };
      const attempt = m.create(PaymentAttempt, {
        reference: referenceOf(base, 0),
        kind: 'charge',
        status: 'pending',
        customer_id: order.customerId,
        amount,
        parent_transaction_id: null,
        external_key: order.fields.external_key ?? null,
        applications: applications.map((a) => ({
          invoice_id: a.invoice_id,
          invoice_schedule_id: a.invoice_schedule_id,
          invoice_customer_id: customers.get(a.invoice_id) ?? 0,
          applied: a.applied.toFixed(2), // stop-check: deliberate, decimal.js's toFixed: the exact amount as a string
        })),
        request: request as unknown as Record<string, unknown>,
        source_index: 0,
        transaction_id: null,
        created_datetime: this.clock.now(),
        resolved_datetime: null,
      });
      const saved = await m.save(attempt);
      if (claim) await claim(tx, saved);
      return saved;
    });
  }

  /** Steps 2 and 3 for each source in turn, until one is accepted or none is left. */
  async charge(
    outside: OutsideUnit,
    attempt: PaymentAttempt,
  ): Promise<{ id: number; result: GatewayResult; source: PaymentSource }> {
    const { sources, ctx, currency_id } = attempt.request as unknown as ChargeRequest;
    const currency = this.reference.currencyCode(
      currency_id ?? (await this.customerCurrency(this.dataSource.manager, attempt.customer_id)),
    );
    // A customer on a hosted page can authenticate (3-D Secure); anyone else's charge is off-session.
    const options = { payer: { customerId: attempt.customer_id }, offSession: ctx.customerPresent !== true };
    for (let index = 0; ; index++) {
      const reference = referenceOf(baseOf(attempt.reference), index);
      const call = this.gateway.charge(outside, sources[index].charge, attempt.amount, currency, reference, options);
      const result = await beforeDeadline(call);
      if (result === DEADLINE_CAME) {
        this.recordLate(attempt, reference, call);
        throw new GatewayOutcomeUnknown(reference);
      }
      const final = isAccepted(result) || index === sources.length - 1;
      const id = await this.record(attempt, reference, result, final);
      if (final) return { id, result, source: sources[index] };
    }
  }

  /**
   * Step 3: writes the transaction for the gateway's answer to `reference`. `final`: the
   * attempt ends here (accepted, or its last source declined) and hands its external key
   * to the transaction; otherwise it moves on to its next source. Whoever comes second
   * (the request or the sweeper) finds the transaction already written.
   */
  record(opened: PaymentAttempt, reference: string, result: GatewayResult, final: boolean): Promise<number> {
    const attemptId = opened.payment_attempt_id;
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      await lockCustomers(tx, [opened.customer_id]);
      const attempt = await lockAttempt(m, attemptId);
      // Recorded already (by the request or the sweeper, whichever came first).
      if (attempt.transaction_id !== null) return attempt.transaction_id;
      if (attempt.reference !== reference) throw new Error(`Charge ${reference} was recorded already.`);
      const request = attempt.request as unknown as ChargeRequest;
      const index = indexOf(reference);
      const id = await this.writeTransaction(tx, attempt, request, index, result, final);
      await m.update(
        PaymentAttempt,
        attemptId,
        final
          ? {
              status: isAccepted(result) ? 'completed' : 'failed',
              external_key: null,
              transaction_id: id,
              resolved_datetime: this.clock.now(),
            }
          : { source_index: index + 1, reference: referenceOf(baseOf(reference), index + 1) },
      );
      return id;
    });
  }

  /**
   * The answer to a charge that came after its request's deadline, recorded when it comes
   * (outside the request, whose deadline has passed) and ending the attempt there: no other
   * source is tried for a request that has answered. Should it never come, or its recording
   * fail, the attempt stays pending for the sweeper, which asks the gateway.
   */
  private recordLate(attempt: PaymentAttempt, reference: string, call: Promise<GatewayResult>): void {
    runOutsideScopes(() => {
      call
        .then((result) => this.record(attempt, reference, result, true))
        .catch((error: unknown) =>
          this.logger.warn(
            `Charge ${reference}, answered late, left to the sweeper: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
    });
  }

  /** Ends an attempt the gateway never received (the sweeper's verdict): its reservation and key are freed. */
  abandon(attemptId: number, reference: string): Promise<void> {
    return this.uow.run(async (tx) => {
      const attempt = await lockAttempt(tx.manager, attemptId);
      if (attempt.status !== 'pending' || attempt.reference !== reference) return;
      await tx.manager.update(PaymentAttempt, attemptId, {
        status: 'failed',
        external_key: null,
        resolved_datetime: this.clock.now(),
      });
    });
  }

  /**
   * The currency a charge moves money in: its invoices' (a payment applies to invoices of
   * one currency only), else the customer's.
   */
  private currencyOf(m: EntityManager, customerId: number, invoices: PayableInvoice[]): Promise<number> {
    const currencies = [...new Set(invoices.filter((i) => !i.is_void).map((i) => i.currency_id))];
    if (currencies.length > 1) {
      const codes = currencies.map((id) => this.reference.currencyCode(id)).join(', ');
      throw ApiError.badRequest(
        `Field "applied_to": the invoices are in different currencies (${codes}); pay each currency with its own payment.`,
      );
    }
    return currencies.length ? Promise.resolve(currencies[0]) : this.customerCurrency(m, customerId);
  }

  private async customerCurrency(m: EntityManager, customerId: number): Promise<number> {
    const customer = await m.findOneOrFail(Customer, {
      where: { customer_id: customerId },
      select: { customer_id: true, currency_id: true },
    });
    return customer.currency_id;
  }

  private async writeTransaction(
    tx: Tx,
    attempt: PaymentAttempt,
    request: ChargeRequest,
    index: number,
    result: GatewayResult,
    final: boolean,
  ): Promise<number> {
    const m = tx.manager;
    const source = request.sources[index];
    const fields: ChargeFields = final ? request.fields : {};
    const ids = attempt.applications.map((a) => a.invoice_id);
    const locked = ids.length ? await this.ledger.lock(tx, ids) : [];
    const open = withoutReserved(locked, await pendingReservations(m, attempt.payment_attempt_id));
    const style: ApplicationStyle = {
      kind: 'list',
      items: attempt.applications.map((a) => ({
        invoice_id: a.invoice_id,
        invoice_schedule_id: a.invoice_schedule_id,
        applied: new Decimal(a.applied),
      })),
    };
    const identity = this.gateway.identity;
    const ctx = request.ctx;
    const id = await this.writer.insert(
      tx,
      ctx,
      {
        customer_id: attempt.customer_id,
        // Recorded in the currency the money moved in (the writer's default: the customer's).
        ...(request.currency_id !== undefined && { currency_id: request.currency_id }),
        transaction_type: 'pay',
        amount: attempt.amount,
        status_str: STATUS_OF[result.outcome],
        gateway_status: isAccepted(result) ? 1 : 0,
        gateway_id: identity.gatewayId,
        gateway_type: identity.gatewayType,
        gateway_nickname: identity.nickname,
        gateway_transid: result.transid,
        gateway_method: source.charge.kind === 'card' ? 'creditcard' : source.charge.kind,
        gateway_msg: result.message,
        gateway_err_code: result.errCode,
        gateway_err_detail: result.errDetail,
        transaction_method: source.transaction_method,
        transaction_detail: fields.transaction_detail ?? source.transaction_detail,
        creditcard_id: source.creditcard_id,
        ach_id: source.ach_id,
        tokenized_id: source.tokenized_id,
        external_key: fields.external_key ?? null,
        memo: fields.memo ?? null,
        ...customValues(fields),
        settle_after_datetime:
          result.outcome === 'pending'
            ? addBusinessDays(this.clock.now(), this.config.achSettlementDays, this.config.timezone)
            : null,
      },
      result.outcome === 'pending' ? 'Bank payment submitted' : `Payment attempt: ${result.outcome}`,
    );
    const applications = await this.applier.write(m, id, attempt.amount, style, open);
    await this.ledger.applicationsChanged(
      tx,
      ctx,
      applications.map((a) => a.invoice_id),
    );
    return id;
  }
}

/** The attempt under its row lock (MySQL; SQLite has a single writer). */
export async function lockAttempt(m: EntityManager, id: number): Promise<PaymentAttempt> {
  const qb = m.createQueryBuilder(PaymentAttempt, 'a').where('a.payment_attempt_id = :id', { id });
  lockForUpdate(qb);
  const found = await qb.getOne();
  if (!found) throw new Error(`Payment attempt ${id} is missing.`);
  return found;
}

/** Each source tried gets its own gateway reference: `<base>-<index>`. */
function referenceOf(base: string, index: number): string {
  return `${base}-${index}`;
}

function baseOf(reference: string): string {
  return reference.slice(0, reference.lastIndexOf('-'));
}

function indexOf(reference: string): number {
  return Number(reference.slice(reference.lastIndexOf('-') + 1));
}

/** Without `amount`: each listed invoice's `applied`, or its whole balance. */
export function amountDue(style: ApplicationStyle, invoices: PayableInvoice[]): Decimal {
  if (style.kind !== 'list' || style.items.length === 0) {
    throw ApiError.badRequest('A required parameter was missing: "amount" (or at least one invoice in "applied_to").');
  }
  const balances = new Map(invoices.map((i) => [i.invoice_id, i.balance]));
  const due = sumMoney(style.items.map((item) => item.applied ?? balances.get(item.invoice_id)!));
  if (due.lte(0)) throw ApiError.badRequest('Field "applied_to": the invoices have nothing left to pay.');
  return due;
}

/** An item naming a scheduled payment without `applied` pays what is left of that payment. */
export function withScheduledAmounts(style: ApplicationStyle, invoices: PayableInvoice[]): ApplicationStyle {
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
