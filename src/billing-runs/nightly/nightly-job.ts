import { Injectable, Logger } from '@nestjs/common';
import { DataSource, FindOptionsWhere, In, IsNull, LessThan, MoreThan } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { NightlyTasks } from 'src/core/schedule/nightly-tasks';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { accountDate, addDays } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { CustomersService } from 'src/customers/customers.service';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceEvents } from 'src/invoices/invoice-events';
import { lockInvoices } from 'src/invoices/invoice-lock';
import { isPastDue } from 'src/invoices/invoice-status';
import { CustomerActivity } from 'src/customers/customer-activity';
import { NightlyRun } from './nightly-run.entity';

/** Rows handled per transaction: bounded work and lock time, whatever the account's size. */
const BATCH = 200;
/** SPEC: customer/nightly goes to customers with activity in the last 90 days. */
const ACTIVITY_DAYS = 90;
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
 * for every open invoice, keeps each customer's `active-current` / `active-overdue`
 * status in step with its invoices (customer/status), and fires customer/nightly for
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
      summary = {
        date,
        invoicesNowOverdue: await this.markOverdue(date),
        invoiceNightlyEvents: await this.announceOpenInvoices(),
        customerStatusChanges: await this.syncCustomerStatuses(date),
        customerNightlyEvents: await this.announceActiveCustomers(date),
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
      await this.uow.run(async (tx) => {
        for (const id of ids) await this.invoiceEvents.record(tx, SYSTEM_CONTEXT, id, 'nightly');
      });
      count += ids.length;
      afterId = ids[ids.length - 1];
    }
  }

  /** `active-overdue` while a customer has an overdue invoice, back to `active-current` after. */
  private async syncCustomerStatuses(date: string): Promise<number> {
    const overdue = new Set(
      (
        await this.dataSource
          .getRepository(Invoice)
          .createQueryBuilder('i')
          .select('DISTINCT i.customer_id', 'customer_id')
          .where('i.invoice_status_str IN (:...open)', { open: OPEN_STATUSES })
          .andWhere('i.due_date < :date', { date })
          .getRawMany<{ customer_id: number | string }>()
      ).map((row) => Number(row.customer_id)),
    );
    let changed = 0;
    let afterId = 0;
    for (;;) {
      const page = await this.dataSource.getRepository(Customer).find({
        select: { customer_id: true, customer_status_str: true },
        where: { customer_status_str: In(['active-current', 'active-overdue']), customer_id: MoreThan(afterId) },
        order: { customer_id: 'ASC' },
        take: BATCH,
      });
      if (page.length === 0) return changed;
      afterId = page[page.length - 1].customer_id;
      const changes = page
        .map((c) => ({
          id: c.customer_id,
          from: c.customer_status_str,
          to: overdue.has(c.customer_id) ? 'active-overdue' : 'active-current',
        }))
        .filter((c) => c.from !== c.to);
      if (changes.length === 0) continue;
      await this.uow.run(async (tx) => {
        for (const change of changes) {
          await tx.manager.update(Customer, change.id, { customer_status_str: change.to });
          await this.customers.recordCustomerEvent(tx, SYSTEM_CONTEXT, change.id, 'status', false);
        }
      });
      changed += changes.length;
    }
  }

  /** customer/nightly for customers with activity in the last 90 days. */
  private async announceActiveCustomers(date: string): Promise<number> {
    const ids = await this.activity.activeSince(this.dataSource.manager, addDays(date, -ACTIVITY_DAYS));
    for (let at = 0; at < ids.length; at += BATCH) {
      const batch = ids.slice(at, at + BATCH);
      await this.uow.run(async (tx) => {
        for (const id of batch) await this.customers.recordCustomerEvent(tx, SYSTEM_CONTEXT, id, 'nightly', false);
      });
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
