import { Injectable } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { Tx } from 'src/database/unit-of-work';
import { DomainEvent } from './domain-event.entity';

export interface EventInput {
  contextStr: string;
  contextId: number | string;
  event: string;
  data: Record<string, unknown>;
}

export type CommittedEventsListener = (eventIds: number[]) => void | Promise<void>;

/**
 * Records domain events in the writer's transaction (the outbox). After commit,
 * listeners (webhook delivery) are told which rows are new; a crash before they act
 * loses nothing, because the rows stay undispatched until handled.
 */
@Injectable()
export class EventRecorder {
  private readonly listeners: CommittedEventsListener[] = [];

  constructor(private readonly clock: Clock) {}

  onCommitted(listener: CommittedEventsListener): void {
    this.listeners.push(listener);
  }

  async record(tx: Tx, ctx: RequestContext, input: EventInput): Promise<void> {
    const result = await tx.manager.insert(DomainEvent, {
      context_str: input.contextStr,
      context_id: String(input.contextId),
      event: input.event,
      data: input.data as never,
      suppress_webhooks: !ctx.sendWebhooks,
      event_datetime: this.clock.now(),
      dispatched_datetime: null,
    });
    const id = (result.identifiers[0] as { domain_event_id: number }).domain_event_id;
    tx.afterCommit(() => this.notify([id]));
  }

  private async notify(ids: number[]): Promise<void> {
    for (const listener of this.listeners) await listener(ids);
  }
}
