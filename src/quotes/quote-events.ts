import { Injectable } from '@nestjs/common';
import { RequestContext } from 'src/core/context/request-context';
import { EventRecorder } from 'src/core/events/event-recorder';
import { CustomersService } from 'src/customers/customers.service';
import { Tx } from 'src/database/unit-of-work';
import { QuoteReader } from './quote-reader';
import { WireFullInvoice } from 'src/invoices/wire-invoice';
import { WireFullSubscription } from 'src/subscriptions/wire-subscription';

export type QuoteEvent = 'insert' | 'update' | 'status' | 'won' | 'lost' | 'nightly';

/**
 * Quote events in the outbox (SPEC "Events"): `quote`, `customer`, and the `invoices` and
 * `packages` the quote became (empty until it is won).
 */
@Injectable()
export class QuoteEvents {
  constructor(
    private readonly events: EventRecorder,
    private readonly reader: QuoteReader,
    private readonly customers: CustomersService,
  ) {}

  async record(
    tx: Tx,
    ctx: RequestContext,
    quoteId: number,
    events: QuoteEvent[],
    created: { invoices?: WireFullInvoice[]; packages?: WireFullSubscription[] } = {},
  ): Promise<void> {
    const quote = await this.reader.full(tx.manager, quoteId);
    const customer = await this.customers.presentById(tx.manager, quote.customer_id);
    const data = { quote, customer, invoices: created.invoices ?? [], packages: created.packages ?? [] };
    for (const event of events) {
      await this.events.record(tx, ctx, { contextStr: 'quote', contextId: quoteId, event, data });
    }
  }
}
