import { Injectable } from '@nestjs/common';
import { In, LessThan, Not } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { PendingEvent, RecordedEvent, RecordedEventListener } from 'src/core/events/event-recorder';
import { accountDate } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { Tx } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { isPastDue } from 'src/invoices/invoice-status';
import { SubscriptionEvents } from './subscription-events';
import { SubscriptionReader } from './subscription-reader';

/** An invoice with money due past its due date makes its subscription `active-overdue` (statusSql). */
const OPEN_STATUSES = ['open-unpaid', 'open-overdue', 'open-collections'];

interface ChangedInvoice {
  invoice_id: number;
  package_id: number | null;
  invoice_status_str: string;
  due_date: string;
}

/**
 * package/status when an active subscription moves to `active-overdue` or back (SPEC
 * "Events"). The status is derived on read, so the trigger is its invoice's invoice/status
 * event, in the same transaction: the invoice that became overdue (the nightly job), or
 * the past-due one paid or voided. It moves the subscription only when no other of its
 * invoices is overdue.
 */
@Injectable()
@RecordedEventListener()
export class SubscriptionOverdueStatus implements RecordedEventListener {
  constructor(
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly reader: SubscriptionReader,
    private readonly events: SubscriptionEvents,
  ) {}

  wants(_tx: Tx, events: readonly PendingEvent[]): Promise<boolean[]> {
    return Promise.resolve(
      events.map((event) => {
        const invoice = event.data.invoice as ChangedInvoice | undefined;
        return event.contextStr === 'invoice' && event.event === 'status' && invoice?.package_id != null;
      }),
    );
  }

  async handle(tx: Tx, event: RecordedEvent): Promise<void> {
    const invoice = event.data.invoice as ChangedInvoice;
    const packageId = invoice.package_id!;
    const today = accountDate(this.clock.now(), this.wire.timezone);
    // Past due: overdue now if still open, overdue until this change if no longer open;
    // into collections it stays overdue.
    if (!isPastDue(invoice.due_date, today) || invoice.invoice_status_str === 'open-collections') return;
    const othersOverdue = await tx.manager.exists(Invoice, {
      where: {
        package_id: packageId,
        invoice_id: Not(invoice.invoice_id),
        invoice_status_str: In(OPEN_STATUSES),
        due_date: LessThan(today),
      },
    });
    if (othersOverdue) return;
    const pkg = await this.reader.full(tx.manager, packageId);
    if (pkg.package_status_state !== 'a') return; // suspended, cancelled or expired: that status stands
    // Webhooks as the change that moved the invoice asked (`_flag_webhooks`).
    const ctx = { ...SYSTEM_CONTEXT, sendWebhooks: !event.suppressWebhooks };
    await this.events.record(tx, ctx, packageId, ['status']);
  }
}
