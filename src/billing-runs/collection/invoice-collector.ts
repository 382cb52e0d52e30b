import { Process, Processor } from '@nestjs/bull';
import { Injectable, Logger } from '@nestjs/common';
import { outsideUnit } from 'src/database/outside-call-guard';
import { DataSource, EntityManager, LessThanOrEqual, MoreThan } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { ApiError } from 'src/core/envelope/api-error';
import { JobQueue, JOBS_QUEUE } from 'src/core/jobs/job-queue';
import { ZERO } from 'src/core/money/decimal';
import { DueWork } from 'src/core/schedule/due-work';
import { lockForUpdate } from 'src/database/dialect';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { ChargeAttempts } from 'src/transactions/charge-attempts';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { PaymentSource, PaymentSources } from 'src/transactions/payment-sources';
import { Dunning } from '../dunning/dunning';
import { COLLECTED_PAYMETHODS } from './collection-enrollment';
import { InvoiceCollection } from './invoice-collection.entity';

export const COLLECTION_JOB = 'billing.collection';
/** Collection rows read per query: bounded memory whatever the backlog. */
const BATCH = 100;
/**
 * Rows charged at once: a gateway answers in hundreds of milliseconds, so one at a time
 * would take hours after a large run. Each row's claim keeps them apart; a MySQL pool of
 * 20 connections leaves room for requests.
 */
const LANES = 8;
const OPEN_STATUSES = new Set(['open-unpaid', 'open-overdue', 'open-collections']);

/** The row was claimed by another worker, is not due yet, or its invoice was voided. */
class NotClaimable extends Error {}

/**
 * Automatic collection (DESIGN §6 "Billing runs"): charges each due collection row's
 * invoice balance with its subscription's payment method, through ChargeAttempts'
 * three steps. Never twice for one invoice: the row is claimed in the very unit that
 * commits the payment attempt (before the gateway call), so a second worker or a restart
 * finds it `charging`; the attempt's reservation also refuses any second charge of the
 * balance meanwhile. A crash between the gateway and the record leaves the attempt pending
 * for PaymentAttemptSweeper; the row is settled from the attempt once it is resolved. A
 * declined charge goes to Dunning. Due work on BILLING_CRON; a due moment is a row's
 * `next_attempt_datetime` (the dunning retries).
 */
@Injectable()
@DueWork()
@Processor(JOBS_QUEUE)
export class InvoiceCollector implements DueWork {
  readonly name = COLLECTION_JOB;
  readonly trigger = { kind: 'billing-cron' } as const;
  private readonly logger = new Logger('Collection');

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly jobs: JobQueue,
    private readonly attempts: ChargeAttempts,
    private readonly sources: PaymentSources,
    private readonly dunning: Dunning,
  ) {}

  /** Queues a collection pass (one at a time: the job id folds repeats into one). */
  runDue(): Promise<void> {
    return this.jobs.enqueue(COLLECTION_JOB, {}, { jobId: COLLECTION_JOB });
  }

  async nextDueAfter(after: Date): Promise<Date | null> {
    const next = await this.dataSource.manager.findOne(InvoiceCollection, {
      select: { invoice_collection_id: true, next_attempt_datetime: true },
      where: { status: 'due', next_attempt_datetime: MoreThan(after) },
      order: { next_attempt_datetime: 'ASC' },
    });
    return next?.next_attempt_datetime ?? null;
  }

  /** Settles charges left in flight, then charges every row due by the Clock; returns how many were charged. */
  @Process(COLLECTION_JOB)
  async collectDue(): Promise<number> {
    const m = this.dataSource.manager;
    const charging = await m.find(InvoiceCollection, {
      select: { invoice_collection_id: true, invoice_id: true },
      where: { status: 'charging' },
      order: { invoice_collection_id: 'ASC' },
    });
    for (const row of charging) await this.guarded(row, () => this.settle(row.invoice_collection_id));
    let charged = 0;
    for (let afterId = 0; ;) {
      const due = await m.find(InvoiceCollection, {
        where: {
          status: 'due',
          next_attempt_datetime: LessThanOrEqual(this.clock.now()),
          invoice_collection_id: MoreThan(afterId),
        },
        order: { invoice_collection_id: 'ASC' },
        take: BATCH,
      });
      if (due.length === 0) return charged;
      await inLanes(due, LANES, async (row) => {
        if (await this.guarded(row, () => this.collect(row))) charged++;
      });
      afterId = due[due.length - 1].invoice_collection_id;
    }
  }

  /** One row: false when nothing was charged (not collectable, claimed elsewhere, no method). */
  private async collect(row: InvoiceCollection): Promise<boolean> {
    const m = this.dataSource.manager;
    const invoice = await m.findOneBy(Invoice, { invoice_id: row.invoice_id });
    const sub = await m.findOneBy(Subscription, { package_id: row.package_id });
    // Paid or voided otherwise, or the subscription now pays by invoice: nothing to collect.
    if (!invoice || !isOpen(invoice) || !sub || !COLLECTED_PAYMETHODS.has(sub.paymethod)) {
      await this.close(row.invoice_collection_id);
      return false;
    }
    let sources: PaymentSource[];
    try {
      sources = await this.sourcesFor(m, invoice);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await this.declinedWithoutCharge(row.invoice_collection_id, error.message);
      return false;
    }
    let attempt: PaymentAttempt;
    try {
      attempt = await this.attempts.open(
        SYSTEM_CONTEXT,
        {
          customerId: invoice.customer_id,
          style: {
            kind: 'list',
            items: [{ invoice_id: invoice.invoice_id, invoice_schedule_id: null, applied: null }],
          },
          amount: null,
          sources,
          fields: { memo: `Automatic collection of invoice ${invoice.refnumber ?? invoice.invoice_id}` },
        },
        (tx, opened) => this.claim(tx, row.invoice_collection_id, opened),
      );
    } catch (error) {
      // Claimed by another worker, or the balance is taken by a charge in flight (a 400):
      // leave the row; close it if the invoice is settled meanwhile.
      if (!(error instanceof NotClaimable) && !(error instanceof ApiError)) throw error;
      await this.closeIfSettled(row.invoice_collection_id);
      return false;
    }
    await this.attempts.charge(outsideUnit('an invoice collected'), attempt);
    await this.settle(row.invoice_collection_id);
    return true;
  }

  /** The subscription's method (or, without one stored, the customer's default); never "all of them". */
  private async sourcesFor(m: EntityManager, invoice: Invoice): Promise<PaymentSource[]> {
    const payable = { ...invoice, is_void: false, balance: ZERO };
    const { step, sources } = await this.sources.select(m, SYSTEM_CONTEXT, invoice.customer_id, undefined, [payable]);
    if (step !== 'subscription' && step !== 'customer-default') {
      throw ApiError.badRequest(
        'No payment method to charge: the subscription has no stored card, bank account or token.',
      );
    }
    return sources;
  }

  /** In the unit that commits the attempt: the row moves to `charging`, linked to it, or the unit rolls back. */
  private async claim(tx: Tx, id: number, attempt: PaymentAttempt): Promise<void> {
    const m = tx.manager;
    const row = await lockRow(m, id);
    const due =
      row.status === 'due' && row.next_attempt_datetime !== null && row.next_attempt_datetime <= this.clock.now();
    const invoice = await m.findOneBy(Invoice, { invoice_id: row.invoice_id });
    if (!due || !invoice || invoice.void_datetime !== null) throw new NotClaimable();
    await m.update(InvoiceCollection, id, {
      status: 'charging',
      payment_attempt_id: attempt.payment_attempt_id,
      mod_datetime: this.clock.now(),
    });
  }

  /**
   * A `charging` row once its attempt is resolved: paid, declined (dunning), or due again
   * when the gateway never received the charge. Left alone while the attempt is pending.
   * A returned bank payment comes back here too (CollectionReopening).
   */
  private settle(id: number): Promise<void> {
    return this.uow.run(async (tx) => {
      const m = tx.manager;
      const row = await lockRow(m, id);
      if (row.status !== 'charging' || row.payment_attempt_id === null) return;
      const attempt = await m.findOneByOrFail(PaymentAttempt, { payment_attempt_id: row.payment_attempt_id });
      if (attempt.status === 'pending') return;
      if (attempt.transaction_id === null) {
        await m.update(InvoiceCollection, id, { status: 'due', mod_datetime: this.clock.now() });
        return;
      }
      // By the charge as it stands now: a bank payment accepted then returned is a decline.
      const t = await m.findOneByOrFail(Transaction, { transaction_id: attempt.transaction_id });
      if (!t.status_str.startsWith('fail-')) {
        await m.update(InvoiceCollection, id, {
          status: 'paid',
          next_attempt_datetime: null,
          mod_datetime: this.clock.now(),
        });
        return;
      }
      await this.dunning.declined(tx, SYSTEM_CONTEXT, row, {
        reason: t.gateway_msg,
        method: [t.transaction_method, t.transaction_detail].filter(Boolean).join(' ') || 'payment method',
      });
    });
  }

  /** No charge was possible (no payment method): a decline for the dunning schedule. */
  private declinedWithoutCharge(id: number, reason: string): Promise<void> {
    return this.uow.run(async (tx) => {
      const row = await lockRow(tx.manager, id);
      if (row.status !== 'due' || row.next_attempt_datetime === null || row.next_attempt_datetime > this.clock.now()) {
        return;
      }
      await this.dunning.declined(tx, SYSTEM_CONTEXT, row, { reason, method: 'payment method on file' });
    });
  }

  private async close(id: number): Promise<void> {
    await this.dataSource.manager.update(
      InvoiceCollection,
      { invoice_collection_id: id, status: 'due' },
      { status: 'closed', next_attempt_datetime: null, mod_datetime: this.clock.now() },
    );
  }

  private async closeIfSettled(id: number): Promise<void> {
    const row = await this.dataSource.manager.findOneByOrFail(InvoiceCollection, { invoice_collection_id: id });
    const invoice = await this.dataSource.manager.findOneBy(Invoice, { invoice_id: row.invoice_id });
    if (!invoice || !isOpen(invoice)) await this.close(id);
  }

  /** A failure for one row is logged and the pass goes on (the next pass retries it). */
  private async guarded<T>(row: { invoice_id: number }, work: () => Promise<T>): Promise<T | false> {
    try {
      return await work();
    } catch (error) {
      this.logger.error(
        `Collecting invoice ${row.invoice_id} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
  }
}

/** Runs `work` over `items` with at most `lanes` at once. */
async function inLanes<T>(items: T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}

function isOpen(invoice: Invoice): boolean {
  return invoice.void_datetime === null && OPEN_STATUSES.has(invoice.invoice_status_str);
}

/** The row under its lock (MySQL; SQLite has a single writer). */
async function lockRow(m: EntityManager, id: number): Promise<InvoiceCollection> {
  const qb = m.createQueryBuilder(InvoiceCollection, 'c').where('c.invoice_collection_id = :id', { id });
  lockForUpdate(qb);
  const row = await qb.getOne();
  if (!row) throw new Error(`Collection row ${id} is missing.`);
  return row;
}
