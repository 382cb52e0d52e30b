import { Module } from '@nestjs/common';
import { SharedTokenService } from './delivery/shared-token.service';
import { WebhookDeliverer } from './delivery/webhook-deliverer';
import { WebhookDeliveryMetrics } from './delivery/webhook-delivery-metrics';
import { WebhookFanout } from './delivery/webhook-fanout';
import { WebhookSweeper } from './delivery/webhook-sweeper';
import { WebhookLogController } from './log/webhook-log.controller';
import { WebhookLogPresenter } from './log/webhook-log.presenter';
import { WebhookLogService } from './log/webhook-log.service';
import { WebhookPresenter } from './webhook.presenter';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Webhook } from './entities/webhook.entity';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { WebhookAttempt } from './entities/webhook-attempt.entity';
import { AccountSecret } from './entities/account-secret.entity';

/** Hooks, their durable signed delivery and the delivery log (see README.md here). */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, WebhookDelivery, WebhookAttempt, AccountSecret])],
  controllers: [WebhooksController, WebhookLogController],
  providers: [
    WebhooksService,
    WebhookPresenter,
    WebhookLogService,
    WebhookLogPresenter,
    SharedTokenService,
    WebhookDeliverer,
    WebhookFanout,
    WebhookSweeper,
    WebhookDeliveryMetrics,
  ],
  // The sweeper is exported for the test clock (DESIGN §6: moving it runs webhook retries).
  exports: [SharedTokenService, WebhookSweeper],
})
export class WebhooksModule {}
