import { Injectable } from '@nestjs/common';
import { Clock } from 'src/core/clock/clock';
import { PendingEvent, RecordedEvent, RecordedEventListener } from 'src/core/events/event-recorder';
import { randomToken } from 'src/core/refs/random-token';
import { insertRow } from 'src/database/insert-row';
import { queryRows } from 'src/database/raw-query';
import { Tx } from 'src/database/unit-of-work';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { patternsMatching } from 'src/webhooks/webhook-events';
import { WebhookDeliverer } from './webhook-deliverer';

/**
 * Turns every recorded event into one delivery row per matching hook, inside the
 * transaction of the change: the change and its deliveries commit together or not at
 * all. After commit the first attempt is queued; if the process dies first, the
 * sweeper finds the row.
 */
@Injectable()
@RecordedEventListener()
export class WebhookFanout implements RecordedEventListener {
  constructor(
    private readonly clock: Clock,
    private readonly deliverer: WebhookDeliverer,
  ) {}

  /** The hooks are read once per pattern set of the batch, so a batch costs no more. */
  async wants(tx: Tx, events: readonly PendingEvent[]): Promise<boolean[]> {
    const read = new Map<string, Promise<Array<{ webhook_id: number }>>>();
    const answers: boolean[] = [];
    for (const event of events) {
      const key = event.suppressWebhooks ? '' : patternsMatching(event.contextStr, event.event).join(' ');
      if (!read.has(key)) read.set(key, this.hooksFor(tx, event));
      answers.push((await read.get(key)!).length > 0);
    }
    return answers;
  }

  handle(tx: Tx, event: RecordedEvent): Promise<void> {
    return this.fanOut(tx, event);
  }

  /** The live hooks that subscribe to the event (none when its webhooks are suppressed). */
  private async hooksFor(tx: Tx, event: PendingEvent): Promise<Array<{ webhook_id: number }>> {
    if (event.suppressWebhooks) return [];
    const patterns = patternsMatching(event.contextStr, event.event);
    return queryRows<{ webhook_id: number }>(
      tx.manager,
      `SELECT webhook_id FROM webhook WHERE event IN (:...patterns) AND deleted_datetime IS NULL ORDER BY webhook_id`,
      { patterns },
    );
  }

  private async fanOut(tx: Tx, event: RecordedEvent): Promise<void> {
    const hooks = await this.hooksFor(tx, event);
    if (hooks.length === 0) return;
    const now = this.clock.now();
    const kicks: Array<{ webhook_delivery_id: number; attempts: number }> = [];
    for (const hook of hooks) {
      const id = await insertRow(tx.manager, WebhookDelivery, {
        webhook_id: Number(hook.webhook_id),
        domain_event_id: event.domainEventId,
        message_id: `msg_${randomToken(24)}`,
        context_str: event.contextStr,
        context_id: String(event.contextId),
        event: event.event,
        status: 'pending',
        attempts: 0,
        next_attempt_datetime: now,
        write_datetime: now,
      });
      kicks.push({ webhook_delivery_id: id, attempts: 0 });
    }
    tx.afterCommit(() => this.deliverer.kickMany(kicks));
  }
}
