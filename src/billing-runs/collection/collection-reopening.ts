import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { EventRecorder, PendingEvent, RecordedEvent, RecordedEventListener } from 'src/core/events/event-recorder';
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
export class CollectionReopening implements RecordedEventListener, OnModuleInit {
  constructor(
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.events.onRecorded(this);
  }

  async wants(tx: Tx, event: PendingEvent): Promise<boolean> {
    if (event.contextStr !== 'invoice' || event.event !== 'status') return false;
    const invoice = event.data.invoice as ReopenedInvoice;
    if (invoice.package_id === null || !invoice.invoice_status_str.startsWith('open-')) return false;
    return (await this.returnedCollection(tx, invoice.invoice_id)) !== null;
  }

  async handle(tx: Tx, event: RecordedEvent): Promise<void> {
    const row = await this.returnedCollection(tx, (event.data.invoice as ReopenedInvoice).invoice_id);
    if (!row) return;
    await tx.manager.update(
      InvoiceCollection,
      { invoice_collection_id: row.invoice_collection_id, status: 'paid' },
      { status: 'charging', mod_datetime: this.clock.now() },
    );
  }

  /** The invoice's collection, when it was paid by a charge that has failed since. */
  private async returnedCollection(tx: Tx, invoiceId: number): Promise<InvoiceCollection | null> {
    const m = tx.manager;
    const row = await m.findOneBy(InvoiceCollection, { invoice_id: invoiceId, status: 'paid' });
    if (!row || row.payment_attempt_id === null) return null;
    const attempt = await m.findOneBy(PaymentAttempt, { payment_attempt_id: row.payment_attempt_id });
    if (!attempt || attempt.transaction_id === null) return null;
    const charge = await m.findOneBy(Transaction, { transaction_id: attempt.transaction_id });
    return charge?.status_str.startsWith('fail-') ? row : null;
  }
}
