import { Injectable } from '@nestjs/common';
import { presentMainContacts } from 'src/customers/contact.presenter';
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
    await this.recordMany(tx, ctx, [invoiceId], event);
  }

  /**
   * The same event for each of these invoices, in their order, as `record` writes it for
   * one: what a billing run's batch calls once for all the invoices it issued. The
   * invoices, their customers and the customers' main contacts are each read once for
   * all of them, so the statements do not grow with the number of invoices.
   */
  async recordMany(
    tx: Tx,
    ctx: RequestContext,
    invoiceIds: readonly number[],
    event: 'insert' | 'void' | 'status' | 'nightly',
  ): Promise<void> {
    const m = tx.manager;
    const invoices = await this.reader.fullMany(m, invoiceIds);
    const customers = await this.customers.presentManyById(
      m,
      invoices.map((invoice) => invoice.customer_id),
    );
    const withUser = event === 'status' || event === 'nightly';
    const users = withUser ? await presentMainContacts(m, customers, this.wire, this.reference) : null;
    await this.events.recordMany(
      tx,
      ctx,
      invoices.map((invoice, i) => {
        const customer = customers[i];
        const data: Record<string, unknown> = { invoice, customer };
        if (users) data.user = users.get(customer.superuser_id as number) ?? null;
        return { contextStr: 'invoice', contextId: invoiceIds[i], event, data };
      }),
    );
  }
}
