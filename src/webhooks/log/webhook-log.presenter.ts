import { Injectable } from '@nestjs/common';
import { WireFormat } from 'src/core/wire/wire-format';
import { wireContextId } from 'src/webhooks/delivery/delivery-envelope';
import { WebhookAttempt } from 'src/webhooks/entities/webhook-attempt.entity';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { WireWebhookLog } from './wire-webhook-log';

/** A delivery on the wire (`webhook_log`), with every attempt and what the receiver said. */
@Injectable()
export class WebhookLogPresenter {
  constructor(private readonly wire: WireFormat) {}

  present(delivery: WebhookDelivery, attempts: WebhookAttempt[]): WireWebhookLog {
    const last = attempts[attempts.length - 1];
    return {
      webhook_log_id: delivery.webhook_delivery_id,
      resthook_id: delivery.webhook_id,
      webhook_message_id: delivery.message_id,
      context_str: delivery.context_str,
      context_id: wireContextId(delivery.context_id),
      event: delivery.event,
      status: delivery.status,
      attempts: delivery.attempts,
      next_attempt_datetime: this.wire.datetime(delivery.next_attempt_datetime),
      last_attempt_datetime: this.wire.datetime(delivery.last_attempt_datetime),
      last_response_code: delivery.last_response_code,
      last_response_body: last?.response_body ?? null,
      last_error: last?.error ?? null,
      delivered_datetime: this.wire.datetime(delivery.delivered_datetime),
      write_datetime: this.wire.datetime(delivery.write_datetime),
      attempt_log: attempts.map((a) => ({
        attempt: a.attempt,
        attempt_datetime: this.wire.datetime(a.attempt_datetime),
        response_code: a.response_code,
        response_body: a.response_body,
        error: a.error,
      })),
    };
  }
}
