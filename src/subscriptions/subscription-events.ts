import { Injectable } from '@nestjs/common';
import { presentStoredContact } from 'src/customers/contact.presenter';
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
    if (events.length === 0) return;
    const pkg = await this.reader.full(tx.manager, packageId, tiersets);
    const customer = await this.customers.presentById(tx.manager, pkg.customer_id as number);
    const superuserId = customer.superuser_id as number | null;
    const user = superuserId ? await presentStoredContact(tx.manager, superuserId, this.wire, this.reference) : null;
    for (const event of events) {
      await this.events.record(tx, ctx, {
        contextStr: 'package',
        contextId: packageId,
        event,
        data: { package: pkg, customer, user },
      });
    }
  }

  /**
   * The same events for each of these subscriptions, in their order, as `record` writes
   * them for one: what a billing run's batch calls once for all the cycles it billed.
   */
  async recordMany(
    tx: Tx,
    ctx: RequestContext,
    packageIds: readonly number[],
    events: SubscriptionEvent[],
    tiersets?: Map<number, LoadedTierset[]>,
  ): Promise<void> {
    for (const packageId of packageIds) await this.record(tx, ctx, packageId, events, tiersets);
  }
}
