import { Injectable } from '@nestjs/common';
import { presentStoredContact } from 'src/customers/contact.presenter';
import { RequestContext } from 'src/core/context/request-context';
import { EventRecorder } from 'src/core/events/event-recorder';
import { WireFormat } from 'src/core/wire/wire-format';
import { CustomersService } from 'src/customers/customers.service';
import { Tx } from 'src/database/unit-of-work';
import { ReferenceService } from 'src/reference/reference.service';
import { InvoiceReader } from './invoice-reader';

/** Invoice events in the outbox (SPEC "Events"): insert, void, status and nightly, with their data keys. */
@Injectable()
export class InvoiceEvents {
  constructor(
    private readonly events: EventRecorder,
    private readonly reader: InvoiceReader,
    private readonly customers: CustomersService,
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
  ) {}

  /** `insert`: invoice (with line_items), customer. `void`: invoice, customer. `status`, `nightly`: invoice, customer, user. */
  async record(
    tx: Tx,
    ctx: RequestContext,
    invoiceId: number,
    event: 'insert' | 'void' | 'status' | 'nightly',
  ): Promise<void> {
    const invoice = await this.reader.full(tx.manager, invoiceId);
    const customer = await this.customers.presentById(tx.manager, invoice.customer_id);
    const data: Record<string, unknown> = { invoice, customer };
    if (event === 'status' || event === 'nightly') {
      const superuserId = customer.superuser_id as number | null;
      data.user = superuserId ? await presentStoredContact(tx.manager, superuserId, this.wire, this.reference) : null;
    }
    await this.events.record(tx, ctx, { contextStr: 'invoice', contextId: invoiceId, event, data });
  }

  /**
   * The same event for each of these invoices, in their order, as `record` writes it for
   * one: what a billing run's batch calls once for all the invoices it issued.
   */
  async recordMany(
    tx: Tx,
    ctx: RequestContext,
    invoiceIds: readonly number[],
    event: 'insert' | 'void' | 'status' | 'nightly',
  ): Promise<void> {
    for (const invoiceId of invoiceIds) await this.record(tx, ctx, invoiceId, event);
  }
}
