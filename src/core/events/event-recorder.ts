import { Injectable } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { insertRow } from 'src/database/insert-row';
import { Tx } from 'src/database/unit-of-work';
import { DomainEvent } from './domain-event.entity';

export interface EventInput {
  contextStr: string;
  contextId: number | string;
  event: string;
  data: Record<string, unknown>;
}

/** An event as just written, handed to in-transaction listeners. */
export interface RecordedEvent extends EventInput {
  domainEventId: number;
  suppressWebhooks: boolean;
}

/** Runs inside the writer's transaction: what it writes commits or rolls back with the change. */
export type RecordedEventListener = (tx: Tx, event: RecordedEvent) => Promise<void>;

/**
 * Records domain events in the writer's transaction (the outbox). Listeners run in that
 * same transaction (webhook delivery rows), so a crash can neither lose an event nor
 * announce a change that rolled back; whatever they must do after commit they schedule
 * with `tx.afterCommit`.
 */
@Injectable()
export class EventRecorder {
  private readonly inTransaction: RecordedEventListener[] = [];

  constructor(private readonly clock: Clock) {}

  /** Fan-out that must be as durable as the change itself (webhook delivery rows). */
  onRecorded(listener: RecordedEventListener): void {
    this.inTransaction.push(listener);
  }

  async record(tx: Tx, ctx: RequestContext, input: EventInput): Promise<void> {
    const id = await insertRow(tx.manager, DomainEvent, {
      context_str: input.contextStr,
      context_id: String(input.contextId),
      event: input.event,
      data: input.data as never,
      suppress_webhooks: !ctx.sendWebhooks,
      event_datetime: this.clock.now(),
    });
    const recorded: RecordedEvent = { ...input, domainEventId: id, suppressWebhooks: !ctx.sendWebhooks };
    for (const listener of this.inTransaction) await listener(tx, recorded);
  }
}
