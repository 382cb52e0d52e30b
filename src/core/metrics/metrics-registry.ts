import { Injectable } from '@nestjs/common';
import {
  collectDefaultMetrics,
  Counter,
  CounterConfiguration,
  Gauge,
  GaugeConfiguration,
  Histogram,
  HistogramConfiguration,
  Registry,
} from 'prom-client';

/**
 * The app's Prometheus metrics (served at `/metrics`). A module adds its own counters and
 * gauges here (a gauge's `collect` reads its figures at scrape time); asking twice for the
 * same name returns the one metric. One registry per app, not prom-client's global one, so
 * apps in the same process (tests) keep their own figures.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'billing_' });
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return (
      (this.registry.getSingleMetric(config.name) as Counter<L> | undefined) ??
      new Counter({ ...config, registers: [this.registry] })
    );
  }

  gauge<L extends string>(config: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L> {
    return (
      (this.registry.getSingleMetric(config.name) as Gauge<L> | undefined) ??
      new Gauge({ ...config, registers: [this.registry] })
    );
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return (
      (this.registry.getSingleMetric(config.name) as Histogram<L> | undefined) ??
      new Histogram({ ...config, registers: [this.registry] })
    );
  }
}
