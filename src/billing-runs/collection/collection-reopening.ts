import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { PendingEvent, RecordedEvent, RecordedEventListener } from 'src/core/events/event-recorder';
import { Tx } from 'src/database/unit-of-work';
import { PaymentAttempt } from 'src/transactions/entities/payment-attempt.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { InvoiceCollection } from './invoice-collection.entity';

interface ReopenedInvoice {
  invoice_id: number;
  package_id: number | null;
  invoice_status_str: string;
}

/**
 * A collected bank payment the bank returns (the ACH settlement turns it Failed) reopens
 * its invoice: its collection goes back to `charging`, in the same transaction, so the
 * next collection pass settles it as the decline it turned out to be (dunning follows).
 * A payment voided by the merchant reopens the invoice too, but is no decline: it is left.
 */
@Injectable()
@RecordedEventListener()
export class CollectionReopening implements RecordedEventListener {
  constructor(private readonly clock: Clock) {}

  async wants(tx: Tx, events: readonly PendingEvent[]): Promise<boolean[]> {
    const candidates = events.map((event) => {
      if (event.contextStr !== 'invoice' || event.event !== 'status') return null;
      const invoice = event.data.invoice as ReopenedInvoice;
      return invoice.package_id === null || !invoice.invoice_status_str.startsWith('open-') ? null : invoice.invoice_id;
    });
    const returned = await this.returnedCollections(
      tx,
      candidates.filter((id) => id !== null),
    );
    return candidates.map((invoiceId) => invoiceId !== null && returned.has(invoiceId));
  }

  async handle(tx: Tx, event: RecordedEvent): Promise<void> {
    const invoiceId = (event.data.invoice as ReopenedInvoice).invoice_id;
    const row = (await this.returnedCollections(tx, [invoiceId])).get(invoiceId);
    if (!row) return;
    await tx.manager.update(
      InvoiceCollection,
      { invoice_collection_id: row.invoice_collection_id, status: 'paid' },
      { status: 'charging', mod_datetime: this.clock.now() },
    );
  }

  /** The invoices' collections, by invoice id, that were paid by a charge that has failed since (three queries). */
  private async returnedCollections(tx: Tx, invoiceIds: number[]): Promise<Map<number, InvoiceCollection>> {
    const m = tx.manager;
    if (invoiceIds.length === 0) return new Map();
    const rows = (await m.findBy(InvoiceCollection, { invoice_id: In(invoiceIds), status: 'paid' })).filter(
      (row) => row.payment_attempt_id !== null,
    );
    if (rows.length === 0) return new Map();
    const attempts = await m.findBy(PaymentAttempt, { payment_attempt_id: In(rows.map((r) => r.payment_attempt_id!)) });
    const chargeOf = new Map(attempts.map((a) => [a.payment_attempt_id, a.transaction_id]));
    const chargeIds = attempts.flatMap((a) => (a.transaction_id === null ? [] : [a.transaction_id]));
    if (chargeIds.length === 0) return new Map();
    const failed = new Set(
      (await m.findBy(Transaction, { transaction_id: In(chargeIds) }))
        .filter((t) => t.status_str.startsWith('fail-'))
        .map((t) => t.transaction_id),
    );
    return new Map(
      rows.flatMap((row) => {
        const charge = chargeOf.get(row.payment_attempt_id!);
        return charge != null && failed.has(charge) ? [[row.invoice_id, row] as [number, InvoiceCollection]] : [];
      }),
    );
  }
}
