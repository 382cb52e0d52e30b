import { Injectable } from '@nestjs/common';
import { presentMainContacts } from 'src/customers/contact.presenter';
import { RequestContext } from 'src/core/context/request-context';
import { EventRecorder } from 'src/core/events/event-recorder';
import { WireFormat } from 'src/core/wire/wire-format';
import { CustomersService } from 'src/customers/customers.service';
import { Tx } from 'src/database/unit-of-work';
import { LoadedTierset } from 'src/items/tierset-loader';
import { ReferenceService } from 'src/reference/reference.service';
import { SubscriptionReader } from './subscription-reader';

export type SubscriptionEvent = 'insert' | 'update' | 'status' | 'paycycle' | 'paymethod' | 'upgrade' | 'generate';

/**
 * Package events in the outbox (SPEC "Events"): each carries `package` (with
 * `line_items`, as SPEC shows for update), `customer` and the customer's main contact
 * `user`, as they stand in the writer's transaction.
 */
@Injectable()
export class SubscriptionEvents {
  constructor(
    private readonly events: EventRecorder,
    private readonly reader: SubscriptionReader,
    private readonly customers: CustomersService,
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
  ) {}

  /** `tiersets`: current tiersets by item already read (a billing run's batch). */
  async record(
    tx: Tx,
    ctx: RequestContext,
    packageId: number,
    events: SubscriptionEvent[],
    tiersets?: Map<number, LoadedTierset[]>,
  ): Promise<void> {
    await this.recordMany(tx, ctx, [packageId], events, tiersets);
  }

  /**
   * The same events for each of these subscriptions, in their order, as `record` writes
   * them for one: what a billing run's batch calls once for all the cycles it billed. The
   * subscriptions, their customers and the customers' main contacts are each read once
   * for all of them, so the statements do not grow with the number of subscriptions.
   */
  async recordMany(
    tx: Tx,
    ctx: RequestContext,
    packageIds: readonly number[],
    events: SubscriptionEvent[],
    tiersets?: Map<number, LoadedTierset[]>,
  ): Promise<void> {
    if (events.length === 0 || packageIds.length === 0) return;
    const m = tx.manager;
    const packages = await this.reader.fullMany(m, packageIds, tiersets);
    const customers = await this.customers.presentManyById(
      m,
      packages.map((pkg) => pkg.customer_id),
    );
    const users = await presentMainContacts(m, customers, this.wire, this.reference);
    await this.events.recordMany(
      tx,
      ctx,
      packages.flatMap((pkg, i) => {
        const customer = customers[i];
        const data = { package: pkg, customer, user: users.get(customer.superuser_id as number) ?? null };
        return events.map((event) => ({ contextStr: 'package', contextId: packageIds[i], event, data }));
      }),
    );
  }
}
