import { Injectable } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { insertAtCommit } from 'src/database/deferred-inserts';
import { insertRow } from 'src/database/insert-row';
import { Tx } from 'src/database/unit-of-work';
import { DomainEvent } from './domain-event.entity';

export interface EventInput {
  contextStr: string;
  contextId: number | string;
  event: string;
  data: Record<string, unknown>;
}

/** An event about to be written: what a listener decides on. */
export interface PendingEvent extends EventInput {
  suppressWebhooks: boolean;
}

/** An event as just written, handed to the listeners that asked for it. */
export interface RecordedEvent extends PendingEvent {
  domainEventId: number;
}

/**
 * Work an event calls for inside the writer's transaction (webhook delivery rows): what
 * it writes commits or rolls back with the change; whatever it must do after commit it
 * schedules with `tx.afterCommit`.
 */
export interface RecordedEventListener {
  /** Whether this event calls for work here (a hook matches it). */
  wants(tx: Tx, event: PendingEvent): Promise<boolean>;
  /** The work, once the event is written and has its id. */
  handle(tx: Tx, event: RecordedEvent): Promise<void>;
}

/**
 * Records domain events in the writer's transaction (the outbox), so a crash can neither
 * lose an event nor announce a change that rolled back. An event that no listener wants
 * needs no id now: it is written with the transaction's other deferred rows, at its end
 * (deferred-inserts.ts); one that a listener wants is written at once and handed over.
 */
@Injectable()
export class EventRecorder {
  private readonly listeners: RecordedEventListener[] = [];

  constructor(private readonly clock: Clock) {}

  /** Fan-out that must be as durable as the change itself (webhook delivery rows). */
  onRecorded(listener: RecordedEventListener): void {
    this.listeners.push(listener);
  }

  async record(tx: Tx, ctx: RequestContext, input: EventInput): Promise<void> {
    const pending: PendingEvent = { ...input, suppressWebhooks: !ctx.sendWebhooks };
    const wanting: RecordedEventListener[] = [];
    for (const listener of this.listeners) if (await listener.wants(tx, pending)) wanting.push(listener);
    const row = {
      context_str: input.contextStr,
      context_id: String(input.contextId),
      event: input.event,
      data: input.data as never,
      suppress_webhooks: pending.suppressWebhooks,
      event_datetime: this.clock.now(),
    };
    if (wanting.length === 0) {
      await insertAtCommit(tx.manager, DomainEvent, row);
      return;
    }
    const recorded: RecordedEvent = { ...pending, domainEventId: await insertRow(tx.manager, DomainEvent, row) };
    for (const listener of wanting) await listener.handle(tx, recorded);
  }
}
