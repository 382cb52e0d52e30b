import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { RequestContext } from 'src/core/context/request-context';
import { CustomersService } from 'src/customers/customers.service';
import { Tx } from 'src/database/unit-of-work';
import { Invoice } from './entities/invoice.entity';
import { InvoiceEvents } from './invoice-events';
import { InvoiceReader } from './invoice-reader';
import { InvoiceStatusStr, readStatus } from './invoice-status';
import { OpenDueDates } from './open-due-dates';

/**
 * Keeps the stored `invoice_status_str` current. Every writer that changes what an
 * invoice owes (lines, payments, credits, refunds, void, collections) calls `refresh`
 * inside its transaction, after applying the money to invoices it locked with
 * `lockInvoices`; the earliest open due date of their customers and subscriptions is
 * stored again (OpenDueDates); a status that changes records an invoice/status event, and the
 * customer's status (derived from its invoices) is stored with its event in the same
 * moment when it changes too.
 */
@Injectable()
export class InvoiceStatusUpdater {
  constructor(
    private readonly reader: InvoiceReader,
    private readonly events: InvoiceEvents,
    private readonly customers: CustomersService,
    private readonly openDueDates: OpenDueDates,
  ) {}

  /**
   * Recomputes the status of these invoices (fixed number of queries) and returns the ids whose status changed.
   * A writer that changed the due date passes each invoice's `previous` status as read before its
   * change: the stored row can no longer tell it (an unpaid invoice reads as overdue by its due date).
   */
  async refresh(
    tx: Tx,
    ctx: RequestContext,
    invoiceIds: number[],
    previous?: ReadonlyMap<number, InvoiceStatusStr>,
  ): Promise<number[]> {
    if (invoiceIds.length === 0) return [];
    const invoices = await tx.manager.find(Invoice, { where: { invoice_id: In([...new Set(invoiceIds)]) } });
    const figures = await this.reader.figuresFor(tx.manager, invoices);
    const today = this.reader.today();
    const changed: number[] = [];
    for (const invoice of invoices) {
      const next = figures.get(invoice.invoice_id)!.status;
      // Collections ends with full payment: a later refund reopens the invoice as unpaid.
      const endsCollections = next === 'closed-paid' && invoice.in_collections;
      if (next !== invoice.invoice_status_str || endsCollections) {
        await tx.manager.update(Invoice, invoice.invoice_id, {
          invoice_status_str: next,
          ...(endsCollections ? { in_collections: false } : {}),
        });
      }
      const was =
        previous?.get(invoice.invoice_id) ??
        readStatus(invoice.invoice_status_str as InvoiceStatusStr, invoice.due_date, today);
      if (was !== next) {
        changed.push(invoice.invoice_id);
        await this.events.record(tx, ctx, invoice.invoice_id, 'status');
      }
    }
    // Before the customers' statuses, which read it.
    await this.openDueDates.refresh(tx, invoices);
    const customerIds = invoices.filter((i) => changed.includes(i.invoice_id)).map((i) => i.customer_id);
    await this.customers.storeDerivedStatuses(tx, ctx, customerIds);
    return changed;
  }
}
