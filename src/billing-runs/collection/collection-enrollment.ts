import { Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager, In } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { PendingEvent, RecordedEvent, RecordedEventListener } from 'src/core/events/event-recorder';
import { insertAtCommit } from 'src/database/deferred-inserts';
import { Tx } from 'src/database/unit-of-work';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { InvoiceCollection } from './invoice-collection.entity';

/** The subscription payment methods charged automatically (DESIGN §6 "Billing runs"). */
export const COLLECTED_PAYMETHODS: ReadonlySet<string> = new Set(['crd', 'ach', 'tok']);

/** Payment methods, by package id, of the subscriptions a billing run's batch holds locked in its transaction. */
const lockedPaymethods = new WeakMap<EntityManager, ReadonlyMap<number, string>>();

/**
 * Runs `work` (a billing run's batch, in the transaction `manager` stands for) with the
 * payment methods of the subscriptions it read under their row locks: enrollment takes
 * them from there instead of reading each subscription again per invoice.
 */
export async function withLockedPaymethods<T>(
  manager: EntityManager,
  subs: Iterable<Pick<Subscription, 'package_id' | 'paymethod'>>,
  work: () => Promise<T>,
): Promise<T> {
  lockedPaymethods.set(manager, new Map([...subs].map((s) => [s.package_id, s.paymethod])));
  try {
    return await work();
  } finally {
    lockedPaymethods.delete(manager);
  }
}

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
@RecordedEventListener()
export class CollectionEnrollment implements RecordedEventListener {
  constructor(private readonly clock: Clock) {}

  async wants(tx: Tx, events: readonly PendingEvent[]): Promise<boolean[]> {
    const issued = events.map((event) => {
      if (event.contextStr !== 'invoice' || event.event !== 'insert') return null;
      const invoice = event.data.invoice as IssuedInvoice;
      return invoice.package_id === null || !new Decimal(String(invoice.balance)).gt(0) ? null : invoice.package_id;
    });
    const paymethods = await this.paymethodsOf(
      tx.manager,
      issued.filter((id) => id !== null),
    );
    return issued.map((packageId) => packageId !== null && COLLECTED_PAYMETHODS.has(paymethods.get(packageId) ?? ''));
  }

  /** The subscriptions' payment methods: those a billing run's batch holds locked, the others in one query. */
  private async paymethodsOf(manager: EntityManager, packageIds: number[]): Promise<ReadonlyMap<number, string>> {
    const locked = lockedPaymethods.get(manager);
    const unread = [...new Set(packageIds.filter((id) => !locked?.has(id)))];
    if (unread.length === 0) return locked ?? new Map();
    const subs = await manager.find(Subscription, {
      select: { package_id: true, paymethod: true },
      where: { package_id: In(unread) },
    });
    return new Map([...(locked ?? []), ...subs.map((s): [number, string] => [s.package_id, s.paymethod])]);
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
