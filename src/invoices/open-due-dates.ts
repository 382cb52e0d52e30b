import { Injectable } from '@nestjs/common';
import { throughIndex } from 'src/database/dialect';
import { Tx } from 'src/database/unit-of-work';
import { openInvoiceSql } from './invoice-status';

/** What names an invoice's owners: its customer and, when a subscription issued it, that subscription. */
export interface InvoiceOwners {
  customer_id: number;
  package_id?: number | null;
}

/**
 * Keeps `open_due_date` of customers and subscriptions: the earliest due date of their open
 * invoices (null when none is open). It is what the status rules read (customer-status.ts
 * `isOverdue`): comparing it with today in the query costs an indexed column, where an
 * EXISTS over the invoices cost a subquery per row. Every writer that opens, closes, deletes
 * or re-dates an invoice calls `refresh` in its transaction (the issuer, InvoiceStatusUpdater
 * for payments, credits, refunds, void, collections and updates, and the delete), so the
 * status is right at once after the write; only time moves it otherwise, and time is
 * compared in the query.
 */
@Injectable()
export class OpenDueDates {
  /** Stores the column again for the owners of these invoices: one statement per owner table. */
  async refresh(tx: Tx, invoices: readonly InvoiceOwners[]): Promise<void> {
    const customers = new Set(invoices.map((i) => i.customer_id));
    const packages = new Set(invoices.flatMap((i) => (i.package_id == null ? [] : [i.package_id])));
    await store(tx, 'customer', 'customer_id', [...customers]);
    await store(tx, 'package', 'package_id', [...packages]);
  }
}

/** The invoice index each owner's invoices are read through (its leading column is the owner). */
const OWNER_INDEX = { customer: ['customer_id', 'invoice_status_str', 'due_date'], package: ['package_id'] };

async function store(tx: Tx, table: 'customer' | 'package', owner: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  // Ascending ids: two writers of overlapping owners lock their rows in one order.
  ids.sort((a, b) => a - b);
  await tx.manager.query(
    `UPDATE ${table} SET open_due_date = (SELECT MIN(oi.due_date) FROM invoice oi ${throughIndex(tx.manager, 'invoice', OWNER_INDEX[table])}
      WHERE oi.${owner} = ${table}.${owner} AND ${openInvoiceSql('oi')})
    WHERE ${owner} IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
}
