import { In } from 'typeorm';
import { ApiError } from 'src/core/envelope/api-error';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { lockCustomers } from 'src/customers/customer-lock';
import { lockForUpdate } from 'src/database/dialect';
import { Tx } from 'src/database/unit-of-work';
import { Invoice } from './entities/invoice.entity';
import { INVOICE_REF } from './invoice-ref';

/**
 * Row-locks invoices for the rest of the transaction on MySQL/MariaDB and returns them
 * as read under the lock, so an update, a void and a payment applied at the same moment
 * are serialized (SQLite already has a single writer). Locks in ascending id order, so
 * two writers never deadlock on each other's invoices.
 */
export async function lockInvoices(tx: Tx, invoiceIds: number[]): Promise<Invoice[]> {
  const ids = [...new Set(invoiceIds)].sort((a, b) => a - b);
  if (ids.length === 0) return [];
  const qb = tx.manager
    .createQueryBuilder(Invoice, 'i')
    .where({ invoice_id: In(ids) })
    .orderBy('i.invoice_id', 'ASC');
  lockForUpdate(qb);
  return qb.getMany();
}

/**
 * The invoice a path names, read under its row lock; 404 if none, also when it was deleted
 * while the lock was awaited (a second DELETE of one invoice then answers 404, as it would
 * sent after the first). Its customer is locked first (customer-lock.ts, the one lock
 * order): every invoice write stores the customer's `open_due_date` (open-due-dates.ts), and
 * a payment holding the customer and waiting for this invoice would otherwise deadlock.
 */
export async function lockedInvoiceByRef(tx: Tx, ref: string): Promise<Invoice> {
  // Resolved outside the transaction, so that its first statement is the lock: on MySQL a
  // plain read first would fix the snapshot, and what committed while the lock was awaited
  // (a payment applied to it) would stay unseen by the reads after it.
  const found = await findByPathRef(tx.manager.connection.manager, INVOICE_REF, ref);
  await lockCustomers(tx, [found.customer_id]);
  const [locked] = await lockInvoices(tx, [found.invoice_id]);
  if (!locked) throw ApiError.notFound(INVOICE_REF.resource);
  return locked;
}
