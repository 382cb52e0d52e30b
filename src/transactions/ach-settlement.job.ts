import { Process, Processor } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource, LessThanOrEqual, MoreThan } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { JobQueue, JOBS_QUEUE } from 'src/core/jobs/job-queue';
import { RevisionService } from 'src/core/revisions/revision.service';
import { DueWork } from 'src/core/schedule/due-work';
import { UnitOfWork } from 'src/database/unit-of-work';
import { GatewayResult, PaymentGateway } from 'src/payments/payment-gateway';
import { AchAccount } from 'src/paymethods/entities/ach-account.entity';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { InvoiceLedger } from './invoice-ledger';

export const ACH_SETTLEMENT_JOB = 'payments.settle-ach';

/**
 * Settles pending bank payments whose settlement day (ACH_SETTLEMENT_DAYS business days
 * after the charge) has come, by the Clock: Success, or Failed when the bank returns it
 * (its applications stop counting, so the invoices reopen). Due work checked every minute;
 * a due moment is a pending payment's `settle_after_datetime`; the pass itself is a job.
 */
@Injectable()
@DueWork()
@Processor(JOBS_QUEUE)
export class AchSettlementJob implements DueWork {
  readonly name = ACH_SETTLEMENT_JOB;
  readonly trigger = { kind: 'interval', everyMs: 60_000 } as const;
  private readonly logger = new Logger('AchSettlement');

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly gateway: PaymentGateway,
    private readonly ledger: InvoiceLedger,
    private readonly revisions: RevisionService,
  ) {}

  /** Queues a settlement pass (one at a time: the job id folds repeats into one). */
  runDue(): Promise<void> {
    return this.jobs.enqueue(ACH_SETTLEMENT_JOB, {}, { jobId: ACH_SETTLEMENT_JOB });
  }

  async nextDueAfter(after: Date): Promise<Date | null> {
    const next = await this.dataSource.manager.findOne(Transaction, {
      select: { transaction_id: true, settle_after_datetime: true },
      where: { status_str: 'ok-pending', settle_after_datetime: MoreThan(after) },
      order: { settle_after_datetime: 'ASC' },
    });
    return next?.settle_after_datetime ?? null;
  }

  /** Settles everything due as of the Clock's now; returns how many were settled. */
  @Process(ACH_SETTLEMENT_JOB)
  async run(): Promise<number> {
    const due = await this.dataSource.manager.find(Transaction, {
      where: { status_str: 'ok-pending', settle_after_datetime: LessThanOrEqual(this.clock.now()) },
      order: { transaction_id: 'ASC' },
    });
    for (const t of due) {
      try {
        await this.settle(t);
      } catch (error) {
        this.logger.error(
          `Settling transaction ${t.transaction_id} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return due.length;
  }

  private async settle(t: Transaction): Promise<void> {
    const account = t.ach_id
      ? await this.dataSource.manager.findOne(AchAccount, { where: { ach_id: t.ach_id }, withDeleted: true })
      : null;
    const result = await this.gateway.settle(
      outsideUnit('a bank payment settled'),
      { kind: 'ach', gatewayToken: account?.gateway_token ?? '' },
      t.gateway_transid ?? '',
    );
    await this.settleWith(t.transaction_id, result);
  }

  /**
   * Moves a pending payment by the gateway's final answer (also from the gateway's own
   * webhook); an answer still pending (a gateway that settles when it says so) leaves it.
   * False when nothing moved (not pending any more: settled, voided or failed already).
   */
  async settleWith(transactionId: number, result: GatewayResult): Promise<boolean> {
    if (result.outcome === 'pending') return false;
    const ok = result.outcome === 'success';
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      // Only a still-pending row moves (a void in between wins).
      const moved = await m.update(
        Transaction,
        { transaction_id: transactionId, status_str: 'ok-pending' },
        ok
          ? { status_str: 'ok-successful', mod_datetime: this.clock.now() }
          : {
              status_str: 'fail-declined',
              gateway_status: 0,
              gateway_msg: result.message,
              gateway_err_code: result.errCode,
              gateway_err_detail: result.errDetail,
              mod_datetime: this.clock.now(),
            },
      );
      if (!moved.affected) return false;
      await this.revisions.record(
        tx,
        SYSTEM_CONTEXT,
        'transaction',
        transactionId,
        ok ? 'Bank payment settled' : 'Bank payment returned',
      );
      if (!ok) {
        const applications = await m.find(TransactionApplied, { where: { transaction_id: transactionId } });
        await this.ledger.applicationsChanged(
          tx,
          SYSTEM_CONTEXT,
          applications.map((a) => a.invoice_id),
        );
      }
      return true;
    });
  }
}
