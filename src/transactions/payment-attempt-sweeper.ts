import { Injectable, Logger } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { DueWork } from 'src/core/schedule/due-work';
import { PaymentGateway } from 'src/payments/payment-gateway';
import { ChargeAttempts } from './charge-attempts';
import { PaymentAttempt } from './entities/payment-attempt.entity';
import { RefundAttempts } from './refund-attempts';

/** A pending attempt younger than this may still be in its request (between gateway and record). */
export const ATTEMPT_GRACE_MS = 10 * 60_000;

/**
 * Resolves payment attempts left pending (a crash or a database failure between the
 * gateway call and its record) against the gateway, by their reference: what the gateway
 * did is recorded as the request would have recorded it; what it never received is
 * failed, freeing the debt and the external key it held. Never charges anything. Due
 * work, checked every minute; a due moment is a pending attempt's end of grace.
 */
@Injectable()
@DueWork()
export class PaymentAttemptSweeper implements DueWork {
  readonly name = 'payments.attempt-sweep';
  readonly trigger = { kind: 'interval', everyMs: 60_000 } as const;
  private readonly logger = new Logger('PaymentAttemptSweeper');

  constructor(
    private readonly dataSource: DataSource,
    private readonly gateway: PaymentGateway,
    private readonly charges: ChargeAttempts,
    private readonly refunds: RefundAttempts,
  ) {}

  async runDue(asOf: Date): Promise<void> {
    await this.sweep(asOf);
  }

  async nextDueAfter(after: Date): Promise<Date | null> {
    const oldest = await this.dataSource.manager.findOne(PaymentAttempt, {
      select: { payment_attempt_id: true, created_datetime: true },
      where: { status: 'pending' },
      order: { created_datetime: 'ASC' },
    });
    if (!oldest) return null;
    const due = new Date(oldest.created_datetime.getTime() + ATTEMPT_GRACE_MS);
    return due > after ? due : null;
  }

  /** Resolves the attempts pending since before `asOf` less the grace; returns how many. */
  async sweep(asOf: Date): Promise<number> {
    const stale = await this.dataSource.manager.find(PaymentAttempt, {
      where: { status: 'pending', created_datetime: LessThanOrEqual(new Date(asOf.getTime() - ATTEMPT_GRACE_MS)) },
      order: { payment_attempt_id: 'ASC' },
    });
    for (const attempt of stale) {
      const result = await this.gateway.lookup(
        outsideUnit('a pending attempt looked up'),
        attempt.reference,
        attempt.kind,
      );
      if (attempt.kind === 'refund') await this.refunds.resolve(attempt, result);
      else if (result) await this.charges.record(attempt, attempt.reference, result, true);
      else await this.charges.abandon(attempt.payment_attempt_id, attempt.reference);
      this.logger.warn(
        `Payment attempt ${attempt.payment_attempt_id} (${attempt.kind}) resolved: ${result?.outcome ?? 'never received'}`,
      );
    }
    return stale.length;
  }
}
