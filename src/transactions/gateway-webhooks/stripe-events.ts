import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { EventRecorder } from 'src/core/events/event-recorder';
import { RevisionService } from 'src/core/revisions/revision.service';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { GatewayEvent } from 'src/payments/gateway-event.entity';
import { StripeGateway } from 'src/payments/stripe/stripe-gateway';
import { fromStripeAmount } from 'src/payments/stripe/stripe-results';
import { AchSettlementJob } from '../ach-settlement.job';
import { GatewayDispute } from '../entities/gateway-dispute.entity';
import { Transaction } from '../entities/transaction.entity';
import { RefundAttempts } from '../refund-attempts';

/**
 * What Stripe's webhook events do here (DESIGN §6 "Gateways"). Each event id is handled
 * once: it is claimed (a row keyed by its id) before its work, and a redelivery of a
 * claimed id changes nothing; a failure frees the claim so Stripe's retry can do it.
 */
@Injectable()
export class StripeEvents {
  private readonly logger = new Logger('StripeEvents');

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly settlement: AchSettlementJob,
    private readonly refunds: RefundAttempts,
    private readonly revisions: RevisionService,
    private readonly events: EventRecorder,
  ) {}

  /** False when the event was handled before. */
  async handle(gateway: StripeGateway, event: Stripe.Event): Promise<boolean> {
    if (!(await this.claim(event))) return false;
    try {
      await this.act(gateway, event);
      return true;
    } catch (error) {
      await this.dataSource.manager.delete(GatewayEvent, { event_id: event.id });
      throw error;
    }
  }

  private async claim(event: Stripe.Event): Promise<boolean> {
    try {
      await this.dataSource.manager.insert(GatewayEvent, {
        event_id: event.id,
        gateway: 'stripe',
        event_type: event.type.slice(0, 64),
        received_datetime: this.clock.now(),
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  private async act(gateway: StripeGateway, event: Stripe.Event): Promise<void> {
    switch (event.type) {
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed':
        return this.settle(gateway, event.data.object);
      case 'charge.refunded':
        return this.refunded(event.data.object);
      case 'charge.dispute.created':
        return this.disputed(event.data.object);
      default:
        this.logger.debug(`Stripe event ${event.id} (${event.type}) needs nothing here`);
    }
  }

  /** A pending charge (bank debit, 3-D Secure confirmation) ends as Stripe says. */
  private async settle(gateway: StripeGateway, intent: Stripe.PaymentIntent): Promise<void> {
    const payment = await this.paymentOf(intent.id);
    if (!payment) return;
    await this.settlement.settleWith(payment.transaction_id, gateway.resultOf(intent));
  }

  /** A refund made in Stripe's dashboard: recorded once (Stripe's total against what is recorded). */
  private async refunded(charge: Stripe.Charge): Promise<void> {
    const payment = await this.paymentOf(intentIdOf(charge.payment_intent));
    if (!payment || payment.status_str !== 'ok-successful') return;
    await this.refunds.recordMadeByGateway(SYSTEM_CONTEXT, payment, fromStripeAmount(charge.amount_refunded, charge.currency));
  }

  /** A dispute on a payment: kept beside it, with a revision and a `dispute` event. */
  private async disputed(dispute: Stripe.Dispute): Promise<void> {
    const payment = await this.paymentOf(intentIdOf(dispute.payment_intent));
    if (!payment) return;
    await this.uow.run(async (tx) => {
      const amount = fromStripeAmount(dispute.amount, dispute.currency);
      await tx.manager.insert(GatewayDispute, {
        dispute_id: dispute.id,
        transaction_id: payment.transaction_id,
        amount,
        reason: dispute.reason.slice(0, 64),
        status: dispute.status.slice(0, 64),
        created_datetime: this.clock.now(),
      });
      await this.revisions.record(
        tx,
        SYSTEM_CONTEXT,
        'transaction',
        payment.transaction_id,
        `Disputed by the payer (${dispute.reason}): ${amount.toFixed(2)}`, // stop-check: deliberate, decimal.js's toFixed, for display
      );
      await this.events.record(tx, SYSTEM_CONTEXT, {
        contextStr: 'transaction',
        contextId: payment.transaction_id,
        event: 'dispute',
        data: {
          dispute_id: dispute.id,
          amount: amount.toNumber(),
          reason: dispute.reason,
          status: dispute.status,
        },
      });
    });
  }

  private paymentOf(intentId: string | null): Promise<Transaction | null> {
    if (!intentId) return Promise.resolve(null);
    return this.dataSource.manager.findOne(Transaction, {
      where: { gateway_transid: intentId, gateway_type: 'stripe', transaction_type: 'pay' },
      order: { transaction_id: 'DESC' },
    });
  }
}

function intentIdOf(intent: string | Stripe.PaymentIntent | null): string | null {
  return typeof intent === 'string' ? intent : (intent?.id ?? null);
}
