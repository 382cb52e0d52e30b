import { Injectable, Logger } from '@nestjs/common';
import { DataSource, FindOptionsWhere, In, IsNull, LessThan, MoreThan } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { NightlyTasks } from 'src/core/schedule/nightly-tasks';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { accountDate, accountDateSql, accountMidnight, addDays } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { CustomersService } from 'src/customers/customers.service';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceEvents } from 'src/invoices/invoice-events';
import { lockInvoices } from 'src/invoices/invoice-lock';
import { isPastDue } from 'src/invoices/invoice-status';
import { ACTIVITY_DAYS, CustomerActivity } from 'src/customers/customer-activity';
import { nightlyCustomerStatus, overdueSql } from 'src/customers/customer-status';
import { NightlyRun } from './nightly-run.entity';

/** Rows handled per transaction: bounded work and lock time, whatever the account's size. */
const BATCH = 200;
const OPEN_STATUSES = ['open-unpaid', 'open-overdue', 'open-collections'];
/** A claimed night that has not finished after this long is taken over by the next tick. */
const CLAIM_LEASE_MS = 60 * 60 * 1000;

export interface NightlySummary {
  date: string;
  invoicesNowOverdue: number;
  invoiceNightlyEvents: number;
  customerStatusChanges: number;
  customerNightlyEvents: number;
}

/**
 * The nightly job (DESIGN §6 "Billing runs"): once per account date it moves unpaid
 * invoices past their due date to `open-overdue` (invoice/status), fires invoice/nightly
 * for every open invoice, stores each customer's status as it now reads (overdue or
 * current from its invoices, `inactive-activity` after 90 days without activity and back
 * on new activity) with customer/status once per change, and fires customer/nightly for
 * customers with recent activity. Work is done in batches, each in its own transaction.
 */
@Injectable()
export class NightlyJob {
  private readonly logger = new Logger('Nightly');

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly invoiceEvents: InvoiceEvents,
    private readonly customers: CustomersService,
    private readonly activity: CustomerActivity,
    private readonly tasks: NightlyTasks,
  ) {}

  /** Runs tonight's job unless it already ran (here or on another instance). */
  async runDue(): Promise<NightlySummary | null> {
    return this.runFor(accountDate(this.clock.now(), this.wire.timezone));
  }

  /** Runs the job for one account date, once: null when that date was already claimed. */
  async runFor(date: string): Promise<NightlySummary | null> {
    if (!(await this.claim(date))) return null;
    let summary: NightlySummary;
    let tasks: Record<string, number>;
    try {
      const invoicesNowOverdue = await this.markOverdue(date);
      const invoiceNightlyEvents = await this.announceOpenInvoices();
      const active = await this.activity.activeSince(this.dataSource.manager, addDays(date, -ACTIVITY_DAYS));
      summary = {
        date,
        invoicesNowOverdue,
        invoiceNightlyEvents,
        customerStatusChanges: await this.syncCustomerStatuses(date, new Set(active)),
        customerNightlyEvents: await this.announceActiveCustomers(active),
      };
      // What other modules add to the night (quote/nightly, ...).
      tasks = await this.tasks.runAll(date);
    } catch (error) {
      // Give the night back, so the next tick runs it again rather than never.
      await this.dataSource.getRepository(NightlyRun).delete({ run_date: date, finished_datetime: IsNull() });
      throw error;
    }
    await this.dataSource.getRepository(NightlyRun).update(date, { finished_datetime: this.clock.now() });
    this.logger.log(`Nightly run ${date}: ${JSON.stringify({ ...summary, tasks })}`);
    return summary;
  }

  /**
   * Claims the date: a new row, or a run that started over an hour ago and never finished
   * (its worker died or failed; the steps are safe to repeat).
   */
  private async claim(date: string): Promise<boolean> {
    const now = this.clock.now();
    const repo = this.dataSource.getRepository(NightlyRun);
    try {
      await repo.insert({ run_date: date, started_datetime: now, finished_datetime: null });
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const stale = new Date(now.getTime() - CLAIM_LEASE_MS);
    const taken = await repo.update(
      { run_date: date, finished_datetime: IsNull(), started_datetime: LessThan(stale) },
      { started_datetime: now },
    );
    return taken.affected === 1;
  }

  /**
   * Stored `open-unpaid` invoices due before `date` become `open-overdue`, each with its
   * status event. Each batch is re-read under the invoices' row locks, so an invoice
   * paid or voided since it was selected is left alone and gets no event.
   */
  private async markOverdue(date: string): Promise<number> {
    let count = 0;
    let afterId = 0;
    for (;;) {
      const ids = await this.invoiceIds({ invoice_status_str: 'open-unpaid', due_date: LessThan(date) }, afterId);
      if (ids.length === 0) return count;
      count += await this.uow.run(async (tx) => {
        const due = (await lockInvoices(tx, ids)).filter(
          (i) => i.invoice_status_str === 'open-unpaid' && isPastDue(i.due_date, date),
        );
        for (const invoice of due) {
          await tx.manager.update(Invoice, invoice.invoice_id, { invoice_status_str: 'open-overdue' });
          await this.invoiceEvents.record(tx, SYSTEM_CONTEXT, invoice.invoice_id, 'status');
        }
        return due.length;
      });
      afterId = ids[ids.length - 1];
    }
  }

  /** invoice/nightly for every invoice that still has money due (never paid or void ones). */
  private async announceOpenInvoices(): Promise<number> {
    let count = 0;
    let afterId = 0;
    for (;;) {
      const ids = await this.invoiceIds({ invoice_status_str: In(OPEN_STATUSES) }, afterId);
      if (ids.length === 0) return count;
      await this.uow.run((tx) => this.invoiceEvents.recordMany(tx, SYSTEM_CONTEXT, ids, 'nightly'));
      count += ids.length;
      afterId = ids[ids.length - 1];
    }
  }

  /**
   * Stores each customer's status as of `date` where it changed (nightlyCustomerStatus),
   * with one customer/status event per change (CustomersService.storeStatus).
   */
  private async syncCustomerStatuses(date: string, active: ReadonlySet<number>): Promise<number> {
    const since = accountMidnight(addDays(date, -ACTIVITY_DAYS), this.wire.timezone);
    const overdue = overdueSql('c.open_due_date', accountDateSql(date));
    let changed = 0;
    let afterId = 0;
    for (;;) {
      const page = await this.dataSource
        .getRepository(Customer)
        .createQueryBuilder('c')
        .select('c.customer_id', 'id')
        .addSelect('c.customer_status_str', 'stored')
        // A customer created within the window has had no time to be inactive.
        .addSelect('(CASE WHEN c.write_datetime >= :since THEN 1 ELSE 0 END)', 'fresh')
        .addSelect(`(CASE WHEN ${overdue} THEN 1 ELSE 0 END)`, 'overdue')
        .where('c.customer_id > :afterId', { afterId, since })
        .orderBy('c.customer_id', 'ASC')
        .limit(BATCH)
        .getRawMany<{ id: number | string; stored: string; fresh: number | string; overdue: number | string }>();
      if (page.length === 0) return changed;
      afterId = Number(page[page.length - 1].id);
      const changes = page
        .map((c) => {
          const id = Number(c.id);
          const recentActivity = active.has(id) || Number(c.fresh) === 1;
          const to = nightlyCustomerStatus(c.stored, { overdue: Number(c.overdue) === 1, recentActivity });
          return { id, from: c.stored, to };
        })
        .filter((c) => c.from !== c.to);
      if (changes.length === 0) continue;
      changed += await this.uow.run(async (tx) => {
        let stored = 0;
        for (const change of changes) {
          if (await this.customers.storeStatus(tx, SYSTEM_CONTEXT, change.id, change.from, change.to)) stored++;
        }
        return stored;
      });
    }
  }

  /** customer/nightly for the customers with activity in the last 90 days. */
  private async announceActiveCustomers(ids: readonly number[]): Promise<number> {
    for (let at = 0; at < ids.length; at += BATCH) {
      const batch = ids.slice(at, at + BATCH);
      await this.uow.run((tx) => this.customers.recordCustomerEvents(tx, SYSTEM_CONTEXT, batch, 'nightly'));
    }
    return ids.length;
  }

  private async invoiceIds(where: FindOptionsWhere<Invoice>, afterId = 0): Promise<number[]> {
    const rows = await this.dataSource.getRepository(Invoice).find({
      select: { invoice_id: true },
      where: { ...where, invoice_id: MoreThan(afterId) },
      order: { invoice_id: 'ASC' },
      take: BATCH,
    });
    return rows.map((r) => r.invoice_id);
  }
}
