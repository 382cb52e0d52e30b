import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from 'src/core/metrics/metrics-registry';

/**
 * Counts every answered request by method, route template (`/api/v3/customer/:id`, so the
 * label set stays small; `unmatched` for paths no route serves) and status, with its latency.
 * A 429 is a rate-limit refusal: only the throttler answers it.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly refusals: Counter;

  constructor(metrics: MetricsRegistry) {
    this.requests = metrics.counter({
      name: 'billing_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
    });
    this.duration = metrics.histogram({
      name: 'billing_http_request_duration_seconds',
      help: 'Time from request to the end of the answer, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    this.refusals = metrics.counter({
      name: 'billing_rate_limit_refusals_total',
      help: 'Requests refused with 429 by the per-credential rate limit',
    });
  }

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const route = req.route as { path?: string } | undefined;
      const labels = {
        method: req.method,
        route: route?.path ? `${req.baseUrl}${route.path}` : 'unmatched',
        status: String(res.statusCode),
      };
      this.requests.inc(labels);
      this.duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (res.statusCode === 429) this.refusals.inc();
    });
    next();
  }
}
