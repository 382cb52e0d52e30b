import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobQueue } from 'src/core/jobs/job-queue';
import { MetricsRegistry } from 'src/core/metrics/metrics-registry';

/** mysql2's pool keeps its figures in fields without a public getter. */
interface Mysql2Pool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

/** Database pool use and job queue depth, read at scrape time. */
@Injectable()
export class RuntimeMetrics {
  constructor(
    metrics: MetricsRegistry,
    dataSource: DataSource,
    jobs: JobQueue,
  ) {
    // Its gauges, made with it, as the other metrics are (a gauge reads its figures at scrape time).
    metrics.gauge({
      name: 'billing_db_pool_connections',
      help: 'Database pool connections: open, idle, and requests waiting for one (MySQL/MariaDB; SQLite has one connection)',
      labelNames: ['state'],
      collect() {
        const pool = (dataSource.driver as { pool?: Mysql2Pool }).pool;
        if (!pool?._allConnections) return;
        this.set({ state: 'open' }, pool._allConnections.length);
        this.set({ state: 'idle' }, pool._freeConnections?.length ?? 0);
        this.set({ state: 'waiting' }, pool._connectionQueue?.length ?? 0);
      },
    });
    metrics.gauge({
      name: 'billing_job_queue_jobs',
      help: 'Background jobs by state (Bull on Redis, or the in-process runner)',
      labelNames: ['state'],
      async collect() {
        const counts = await jobs.counts().catch(() => ({}));
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      },
    });
  }
}
