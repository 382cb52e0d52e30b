import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { RequestContext } from 'src/core/context/request-context';
import { pluginClass, pluginMethod, Plugins } from 'src/core/plugins/plugins';
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
  /** `_flag_emails=0` on the request that caused it: listeners that mail send nothing. */
  suppressEmails?: boolean;
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
  /**
   * Which of these events call for work here (a hook matches them), one answer per event
   * in their order: asked once per batch, so what it reads it reads once for all of them.
   */
  wants(tx: Tx, events: readonly PendingEvent[]): Promise<boolean[]>;
  /** The work, once the event is written and has its id. */
  handle(tx: Tx, event: RecordedEvent): Promise<void>;
}

/** Marks a provider as a listener of recorded events (it implements `RecordedEventListener`). */
export const RecordedEventListener = pluginClass<RecordedEventListener, void>();

/**
 * Work a batch of events calls for in the writer's transaction that needs no event id
 * (analytics' MRR history): asked once per batch, before the events are written, so it
 * reads once for all of them and leaves the events deferred.
 */
export type RecordingListener = (tx: Tx, events: readonly PendingEvent[]) => Promise<void>;

/** Marks a method as a recording listener. */
export const RecordingListener = pluginMethod<RecordingListener, void>();

/**
 * Records domain events in the writer's transaction (the outbox), so a crash can neither
 * lose an event nor announce a change that rolled back. An event that no listener wants
 * needs no id now: it is written with the transaction's other deferred rows, at its end
 * (deferred-inserts.ts); one that a listener wants is written at once and handed over.
 * Listeners are found at start: `@RecordedEventListener()` providers and
 * `@RecordingListener()` methods, in the order Nest starts their modules.
 */
@Injectable()
export class EventRecorder implements OnModuleInit {
  private readonly listeners: RecordedEventListener[] = [];
  private readonly recording: RecordingListener[] = [];

  constructor(
    private readonly clock: Clock,
    @Optional() private readonly plugins?: Plugins,
  ) {}

  onModuleInit(): void {
    for (const { instance } of this.plugins?.classes(RecordedEventListener) ?? []) this.onRecorded(instance);
    for (const listener of this.plugins?.methods(RecordingListener) ?? []) this.onRecording(listener.handler);
  }

  /** Fan-out that must be as durable as the change itself (webhook delivery rows). */
  onRecorded(listener: RecordedEventListener): void {
    this.listeners.push(listener);
  }

  /** Work on each batch as it is recorded that needs no event id (see RecordingListener). */
  onRecording(listener: RecordingListener): void {
    this.recording.push(listener);
  }

  async record(tx: Tx, ctx: RequestContext, input: EventInput): Promise<void> {
    await this.recordMany(tx, ctx, [input]);
  }

  /**
   * The events in their order, as `record` writes each; each listener is asked once for
   * the whole batch, before the first event is handed over. A listener's `handle` must
   * therefore not change what it decides for a later event of the same batch (none does:
   * hooks, payment methods and returned charges are not what handling writes).
   */
  async recordMany(tx: Tx, ctx: RequestContext, inputs: readonly EventInput[]): Promise<void> {
    if (inputs.length === 0) return;
    // Named, not spread: see ARCHITECTURE.md ("Objects on hot paths").
    const pending = inputs.map((input): PendingEvent => ({
      contextStr: input.contextStr,
      contextId: input.contextId,
      event: input.event,
      data: input.data,
      suppressWebhooks: !ctx.sendWebhooks,
      suppressEmails: !ctx.sendEmails,
    }));
    for (const listener of this.recording) await listener(tx, pending);
    const answers: boolean[][] = [];
    for (const listener of this.listeners) answers.push(await listener.wants(tx, pending));
    for (const [i, event] of pending.entries()) {
      const wanting = this.listeners.filter((_, l) => answers[l][i]);
      const row = {
        context_str: event.contextStr,
        context_id: String(event.contextId),
        event: event.event,
        data: event.data as never,
        suppress_webhooks: event.suppressWebhooks,
        event_datetime: this.clock.now(),
      };
      if (wanting.length === 0) {
        await insertAtCommit(tx.manager, DomainEvent, row);
        continue;
      }
      const recorded: RecordedEvent = Object.assign(event, {
        domainEventId: await insertRow(tx.manager, DomainEvent, row),
      });
      for (const listener of wanting) await listener.handle(tx, recorded);
    }
  }
}
