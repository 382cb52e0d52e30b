import { Injectable, OnModuleInit } from '@nestjs/common';
import Decimal from 'decimal.js';
import { Clock } from 'src/core/clock/clock';
import { EventRecorder, PendingEvent, RecordedEvent, RecordedEventListener } from 'src/core/events/event-recorder';
import { insertAtCommit } from 'src/database/deferred-inserts';
import { Tx } from 'src/database/unit-of-work';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { InvoiceCollection } from './invoice-collection.entity';

/** The subscription payment methods charged automatically (DESIGN §6 "Billing runs"). */
export const COLLECTED_PAYMETHODS: ReadonlySet<string> = new Set(['crd', 'ach', 'tok']);

interface IssuedInvoice {
  invoice_id: number;
  customer_id: number;
  package_id: number | null;
  balance: number | string;
}

/**
 * Enrolls every subscription invoice paid by card, bank account or token for automatic
 * collection: on its invoice/insert event, in the very transaction that issues it (a
 * billing run, action `invoice`, ...), a collection row due at once. Whoever issues the
 * invoice needs to know nothing of collection, and a crash can neither lose the row nor
 * leave it behind for an invoice that rolled back; the unique key on `invoice_id` makes
 * a second row impossible.
 */
@Injectable()
export class CollectionEnrollment implements RecordedEventListener, OnModuleInit {
  constructor(
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.events.onRecorded(this);
  }

  async wants(tx: Tx, event: PendingEvent): Promise<boolean> {
    if (event.contextStr !== 'invoice' || event.event !== 'insert') return false;
    const invoice = event.data.invoice as IssuedInvoice;
    if (invoice.package_id === null || !new Decimal(String(invoice.balance)).gt(0)) return false;
    const sub = await tx.manager.findOne(Subscription, {
      select: { package_id: true, paymethod: true },
      where: { package_id: invoice.package_id },
    });
    return sub !== null && COLLECTED_PAYMETHODS.has(sub.paymethod);
  }

  async handle(tx: Tx, event: RecordedEvent): Promise<void> {
    const invoice = event.data.invoice as IssuedInvoice;
    const now = this.clock.now();
    await insertAtCommit(tx.manager, InvoiceCollection, {
      invoice_id: invoice.invoice_id,
      package_id: invoice.package_id!,
      customer_id: invoice.customer_id,
      status: 'due',
      next_attempt_datetime: now,
      failures: 0,
      first_failed_datetime: null,
      payment_attempt_id: null,
      created_datetime: now,
      mod_datetime: now,
    });
  }
}
