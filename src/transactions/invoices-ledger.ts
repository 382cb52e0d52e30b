import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In, IsNull } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { ZERO } from 'src/core/money/decimal';
import { lockForUpdate } from 'src/database/dialect';
import { EntityReader } from 'src/database/entity-reader';
import { Tx } from 'src/database/unit-of-work';
import { InvoiceSchedule } from 'src/invoices/entities/invoice-schedule.entity';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceApplied, InvoiceAppliedSource, InvoiceQueryFields } from 'src/invoices/invoice-extensions';
import { lockInvoices } from 'src/invoices/invoice-lock';
import { InvoiceReader } from 'src/invoices/invoice-reader';
import { InvoiceStatusUpdater } from 'src/invoices/invoice-status-updater';
import { scheduleBalances } from 'src/invoices/schedule-balances';
import { TransactionApplied } from './entities/transaction-applied.entity';
import { Transaction } from './entities/transaction.entity';
import { InvoiceLedger, PayableInvoice } from './invoice-ledger';
import { COUNTING_STATUSES } from './transaction-status';

/** The columns of a transaction that the money it applies derives from. */
type AppliedBy = Pick<
  Transaction,
  'transaction_id' | 'transaction_type' | 'status_str' | 'transaction_date' | 'transaction_datetime'
>;
/** An application as read, with its transaction (null when there is none). */
type ReadApplication = Pick<TransactionApplied, 'transaction_applied_id' | 'invoice_id' | 'applied'> & {
  transaction?: AppliedBy | null;
};
type AppliedRow = ReadApplication & { transaction: AppliedBy };

/**
 * Transactions over the invoices module: the money applied to each invoice (payments,
 * credits, refunds, declines, paid date) and the `transaction.transaction_id` query
 * field through InvoiceExtensions; row locks for applying; status refreshes (with their
 * invoice/status events) after every change.
 */
@Injectable()
@InvoiceAppliedSource()
@InvoiceQueryFields({
  'transaction.transaction_id': {
    expr: 'qta.transaction_id',
    type: 'int',
    exists: 'SELECT 1 FROM transaction_applied qta WHERE qta.invoice_id = i.invoice_id AND {cond}',
  },
})
export class InvoicesLedger extends InvoiceLedger implements InvoiceAppliedSource {
  /** Built on first use (they need the data source). */
  private appliedReader: EntityReader<ReadApplication> | null = null;
  private totalsReader: EntityReader<Pick<Invoice, 'invoice_id' | 'total'>> | null = null;

  constructor(
    private readonly reader: InvoiceReader,
    private readonly statuses: InvoiceStatusUpdater,
  ) {
    super();
  }

  /** With each invoice's scheduled payments and their balances (one more query). */
  async read(m: EntityManager, invoiceIds: number[]): Promise<PayableInvoice[]> {
    const invoices = await this.payable(m, () => m.find(Invoice, { where: { invoice_id: In(invoiceIds) } }));
    const entries = await m.find(InvoiceSchedule, { where: { invoice_id: In(invoiceIds) } });
    return invoices.map((invoice) => ({
      ...invoice,
      schedules: scheduleBalances(
        entries.filter((e) => e.invoice_id === invoice.invoice_id),
        invoice.total.minus(invoice.balance),
      ).map(({ entry, balance }) => ({ invoice_schedule_id: entry.invoice_schedule_id, balance })),
    }));
  }

  lock(tx: Tx, invoiceIds: number[]): Promise<PayableInvoice[]> {
    return this.payable(tx.manager, () => lockInvoices(tx, invoiceIds));
  }

  lockOpenOf(tx: Tx, customerId: number): Promise<PayableInvoice[]> {
    return this.payable(tx.manager, () => {
      const qb = tx.manager
        .createQueryBuilder(Invoice, 'i')
        .where({ customer_id: customerId, void_datetime: IsNull() })
        .orderBy('i.invoice_id', 'ASC');
      lockForUpdate(qb);
      return qb.getMany();
    });
  }

  async applicationsChanged(tx: Tx, ctx: RequestContext, invoiceIds: number[]): Promise<void> {
    await this.statuses.refresh(tx, ctx, invoiceIds);
  }

  /** Balances as the invoices module computes them, read after any lock was taken. */
  private async payable(
    m: EntityManager,
    load: () => Promise<Invoice[]>,
  ): Promise<Array<PayableInvoice & { total: Decimal }>> {
    const invoices = await load();
    const figures = await this.reader.figuresFor(m, invoices);
    return invoices.map((i) => ({
      total: i.total,
      invoice_id: i.invoice_id,
      customer_id: i.customer_id,
      package_id: i.package_id,
      date: i.date,
      currency_id: i.currency_id,
      is_void: i.void_datetime !== null,
      balance: figures.get(i.invoice_id)!.balance,
    }));
  }

  /**
   * Two queries for a whole page: the applications with their transactions (in time
   * order), and the invoices' totals for the paid date. Only successful and pending
   * transactions count; a failed payment attempt counts as a decline.
   */
  async appliedFor(m: EntityManager, invoiceIds: number[]): Promise<Map<number, Partial<InvoiceApplied>>> {
    // Only the columns the money applied derives from, through precomputed readers: every
    // invoice of a subscription is asked about whenever it is presented (a billing run's
    // package/generate), and whole transactions made that cost grow with its history.
    this.appliedReader ??= new EntityReader<ReadApplication>(m.connection, {
      entity: TransactionApplied,
      alias: 'ta',
      columns: ['invoice_id', 'applied'],
      joins: [
        {
          property: 'transaction',
          entity: Transaction,
          alias: 't',
          on: 't.transaction_id = ta.transaction_id',
          columns: ['transaction_type', 'status_str', 'transaction_date', 'transaction_datetime'],
        },
      ],
    });
    this.totalsReader ??= new EntityReader(m.connection, { entity: Invoice, alias: 'i', columns: ['total'] });
    const rows = (
      await this.appliedReader.many(m, {
        where: 'ta.invoice_id IN (:...ids)',
        params: { ids: invoiceIds },
        tail: 'ORDER BY t.transaction_datetime ASC, ta.transaction_applied_id ASC',
      })
    ).filter((row): row is AppliedRow => !!row.transaction);
    const result = new Map<number, Partial<InvoiceApplied>>();
    if (!rows.length) return result;
    const totals = new Map(
      (
        await this.totalsReader.many(m, {
          where: 'i.invoice_id IN (:...ids)',
          params: { ids: [...new Set(rows.map((r) => r.invoice_id))] },
          withDeleted: true,
        })
      ).map((i) => [i.invoice_id, i.total]),
    );
    for (const row of rows) {
      const t = row.transaction;
      let entry = result.get(row.invoice_id);
      if (!entry) {
        entry = { payments: ZERO, credits: ZERO, refunds: ZERO, declines: 0, paid_date: null };
        result.set(row.invoice_id, entry);
      }
      if (!COUNTING_STATUSES.includes(t.status_str as never)) {
        if (t.transaction_type === 'pay' && t.status_str.startsWith('fail-'))
          entry.declines = (entry.declines ?? 0) + 1;
        continue;
      }
      if (t.transaction_type === 'pay') entry.payments = (entry.payments ?? ZERO).plus(row.applied);
      else if (t.transaction_type === 'cre') entry.credits = (entry.credits ?? ZERO).plus(row.applied);
      else if (t.transaction_type === 'ref') entry.refunds = (entry.refunds ?? ZERO).plus(row.applied.abs());
      const owed = (totals.get(row.invoice_id) ?? ZERO)
        .minus(entry.payments ?? ZERO)
        .minus(entry.credits ?? ZERO)
        .plus(entry.refunds ?? ZERO);
      // The day the balance reached 0 (kept while it stays there).
      entry.paid_date = owed.lte(0) ? (entry.paid_date ?? t.transaction_date) : null;
    }
    return result;
  }
}
