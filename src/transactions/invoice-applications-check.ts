import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { InvoiceInFlightCheck, InvoiceReferenceCheck } from 'src/invoices/invoice-extensions';
import { pendingReservations } from './attempt-reservations';
import { TransactionApplied } from './entities/transaction-applied.entity';

/**
 * An invoice that a transaction's `applied_to` names (a payment, even one fully refunded,
 * a refund, a credit, a failed attempt) is not deleted: the transaction would name a
 * missing invoice. Voiding keeps the invoice, so it stays possible.
 * Neither a void nor a delete goes through while a charge for the invoice is pending (its
 * attempt reserves part of the balance): the payment would land on a void or missing invoice.
 */
@Injectable()
export class InvoiceApplicationsCheck {
  @InvoiceInFlightCheck()
  async pendingCharge(m: EntityManager, invoiceId: number): Promise<string | null> {
    const reserved = (await pendingReservations(m)).invoices.get(invoiceId);
    return reserved ? `a payment of ${reserved.toFixed(2)} is being charged for it` : null; // stop-check: deliberate, decimal.js's toFixed, for a message
  }

  @InvoiceReferenceCheck()
  async namingTransactions(m: EntityManager, invoiceId: number): Promise<string | null> {
    const rows = await m
      .createQueryBuilder(TransactionApplied, 'ta')
      .select('DISTINCT ta.transaction_id', 'id')
      .where('ta.invoice_id = :invoiceId', { invoiceId })
      .orderBy('ta.transaction_id')
      .getRawMany<{ id: number | string }>();
    if (rows.length === 0) return null;
    return `transaction(s) ${rows.map((row) => Number(row.id)).join(', ')} name it in applied_to`;
  }
}
