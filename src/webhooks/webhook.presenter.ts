import { Injectable } from '@nestjs/common';
import { WireFormat } from 'src/core/wire/wire-format';
import { Webhook } from './entities/webhook.entity';
import { WireWebhook } from './wire-webhook';

/** A hook on the wire: never its secret (shown once, at creation). */
@Injectable()
export class WebhookPresenter {
  constructor(private readonly wire: WireFormat) {}

  present(hook: Webhook): WireWebhook {
    return {
      resthook_id: hook.webhook_id,
      target_url: hook.target_url,
      event: hook.event,
      nickname: hook.nickname,
      write_datetime: this.wire.datetime(hook.write_datetime),
      url_self: this.wire.apiUrl('_resthook', hook.webhook_id),
    };
  }
}
