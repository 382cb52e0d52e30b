import { Injectable, Logger } from '@nestjs/common';
import { DataSource, FindOptionsWhere, In, LessThan, MoreThan } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { accountDate, addDays } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Customer } from 'src/customers/entities/customer.entity';
import { CustomersService } from 'src/customers/customers.service';
import { isUniqueViolation } from 'src/database/unique-violation';
import { UnitOfWork } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceEvents } from 'src/invoices/invoice-events';
import { CustomerActivity } from './customer-activity';
import { NightlyRun } from './nightly-run.entity';

/** Rows handled per transaction: bounded work and lock time, whatever the account's size. */
const BATCH = 200;
/** SPEC: customer/nightly goes to customers with activity in the last 90 days. */
const ACTIVITY_DAYS = 90;
const OPEN_STATUSES = ['open-unpaid', 'open-overdue', 'open-collections'];

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
  ) {}

  /** Runs tonight's job unless it already ran (here or on another instance). */
  async runDue(): Promise<NightlySummary | null> {
    return this.runFor(accountDate(this.clock.now(), this.wire.timezone));
  }

  /** Runs the job for one account date, once: null when that date was already claimed. */
  async runFor(date: string): Promise<NightlySummary | null> {
    if (!(await this.claim(date))) return null;
    const summary: NightlySummary = {
      date,
      invoicesNowOverdue: await this.markOverdue(date),
      invoiceNightlyEvents: await this.announceOpenInvoices(),
      customerStatusChanges: await this.syncCustomerStatuses(date),
      customerNightlyEvents: await this.announceActiveCustomers(date),
    };
    await this.dataSource.getRepository(NightlyRun).update(date, { finished_datetime: this.clock.now() });
    this.logger.log(`Nightly run ${date}: ${JSON.stringify(summary)}`);
    return summary;
  }

  private async claim(date: string): Promise<boolean> {
    try {
      await this.dataSource
        .getRepository(NightlyRun)
        .insert({ run_date: date, started_datetime: this.clock.now(), finished_datetime: null });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Stored `open-unpaid` invoices due before `date` become `open-overdue`, each with its status event. */
  private async markOverdue(date: string): Promise<number> {
    let count = 0;
    for (;;) {
      const ids = await this.invoiceIds({ invoice_status_str: 'open-unpaid', due_date: LessThan(date) });
      if (ids.length === 0) return count;
      await this.uow.run(async (tx) => {
        await tx.manager.update(
          Invoice,
          { invoice_id: In(ids), invoice_status_str: 'open-unpaid' },
          { invoice_status_str: 'open-overdue' },
        );
        for (const id of ids) await this.invoiceEvents.record(tx, SYSTEM_CONTEXT, id, 'status');
      });
      count += ids.length;
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
    const active = await this.dataSource.getRepository(Customer).find({
      select: { customer_id: true, customer_status_str: true },
      where: { customer_status_str: In(['active-current', 'active-overdue']) },
    });
    const changes = active
      .map((c) => ({
        id: c.customer_id,
        from: c.customer_status_str,
        to: overdue.has(c.customer_id) ? 'active-overdue' : 'active-current',
      }))
      .filter((c) => c.from !== c.to);
    for (let at = 0; at < changes.length; at += BATCH) {
      const batch = changes.slice(at, at + BATCH);
      await this.uow.run(async (tx) => {
        for (const change of batch) {
          await tx.manager.update(Customer, change.id, { customer_status_str: change.to });
          await this.customers.recordCustomerEvent(tx, SYSTEM_CONTEXT, change.id, 'status', false);
        }
      });
    }
    return changes.length;
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
