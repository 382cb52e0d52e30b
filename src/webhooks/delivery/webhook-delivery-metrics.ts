import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MetricsRegistry } from 'src/core/metrics/metrics-registry';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';

/** Webhook deliveries by status, counted in the database (the source of truth) at scrape time. */
@Injectable()
export class WebhookDeliveryMetrics {
  constructor(metrics: MetricsRegistry, dataSource: DataSource) {
    // Its gauges, made with it, as the other metrics are (a gauge reads its figures at scrape time).
    metrics.gauge({
      name: 'billing_webhook_deliveries',
      help: 'Webhook deliveries by status: pending, failed (retry scheduled), given_up, delivered',
      labelNames: ['status'],
      async collect() {
        const rows = await dataSource
          .getRepository(WebhookDelivery)
          .createQueryBuilder('d')
          .select('d.status', 'status')
          .addSelect('COUNT(*)', 'n')
          .groupBy('d.status')
          .getRawMany<{ status: string; n: string | number }>()
          .catch(() => []);
        this.reset();
        for (const status of ['pending', 'failed', 'given_up', 'delivered']) this.set({ status }, 0);
        for (const row of rows) this.set({ status: row.status }, Number(row.n));
      },
    });
  }
}
