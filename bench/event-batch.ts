/**
 * Invoice and package events recorded for a billing run's batch: `recordMany` over N ids
 * (BENCH_SUBSCRIPTIONS, default 500) against `record` once per id, in the same process on
 * the same rows, alternating, each in a transaction that defers its event rows (as the
 * run's writers do) and is rolled back. Reports the statements each sends (counted at the
 * driver: TypeORM's and the raw prepared ones) and the median time over BENCH_ROUNDS (3).
 * The rows are a billing run's own: N cloned due subscriptions (each with its customer,
 * whose main contact they share) billed once in this process first.
 *
 *   BENCH_DB=mysql BENCH_SUBSCRIPTIONS=500 npm run bench:events
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BillingRun } from 'src/billing-runs/runs/billing-run';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { deferInsertsIn, flushDeferredInserts } from 'src/database/deferred-inserts';
import { Tx } from 'src/database/unit-of-work';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { InvoiceEvents } from 'src/invoices/invoice-events';
import { SubscriptionEvents } from 'src/subscriptions/subscription-events';
import { createId } from '../test/support/catalog-fixtures';
import { cloneSubscriptions } from '../test/support/due-subscriptions';
import { countStatements } from '../test/support/statement-count';
import { createTestApp, TestApp } from '../test/support/test-app';

class RolledBack extends Error {}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_SUBSCRIPTIONS ?? 500);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  process.env.DB_TYPE = process.env.BENCH_DB === 'mysql' ? 'mysql' : 'sqlite';
  const workDir = mkdtempSync(join(tmpdir(), 'event-batch-bench-'));
  const t = await createTestApp({
    LOG_LEVEL: 'error',
    DB_PATH: join(workDir, 'bench.sqlite'),
    ...(process.env.BENCH_MYSQL_DATABASE ? { DB_NAME: process.env.BENCH_MYSQL_DATABASE } : {}),
  });
  try {
    const asOf = new Date('2026-03-01T16:00:00Z');
    t.clock.set(asOf);
    const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
    const customer = await createId(t, '/api/v3/customer', { company: 'Bench', superuser_email: 'ap@bench.test' });
    const template = await createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
    await cloneSubscriptions(t.dataSource, template, count - 1);
    const summary = await t.app.get(BillingRun).run(asOf);
    if (summary.invoices !== count) throw new Error(`the run billed ${summary.invoices} of ${count}`);
    const invoices = await t.dataSource.manager.find(Invoice, { order: { invoice_id: 'ASC' }, take: count });
    const invoiceIds = invoices.map((i) => i.invoice_id);
    const packageIds = invoices.map((i) => i.package_id!);

    const invoiceEvents = t.app.get(InvoiceEvents);
    const packageEvents = t.app.get(SubscriptionEvents);
    const ctx = SYSTEM_CONTEXT;
    const cases: Record<string, (tx: Tx) => Promise<void>> = {
      'invoice/insert, record per id': async (tx) => {
        for (const id of invoiceIds) await invoiceEvents.record(tx, ctx, id, 'insert');
      },
      'invoice/insert, recordMany': (tx) => invoiceEvents.recordMany(tx, ctx, invoiceIds, 'insert'),
      'package/generate, record per id': async (tx) => {
        for (const id of packageIds) await packageEvents.record(tx, ctx, id, ['generate']);
      },
      'package/generate, recordMany': (tx) => packageEvents.recordMany(tx, ctx, packageIds, ['generate']),
    };
    const results = new Map<string, { statements: number; ms: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const [name, work] of Object.entries(cases)) {
        const measured = await measure(t, work);
        const result = results.get(name) ?? { statements: measured.statements, ms: [] };
        result.ms.push(measured.ms);
        results.set(name, result);
      }
    }
    process.stdout.write(`${t.config.db.type}, ${count} ids, ${rounds} rounds (median ms; all)\n`);
    for (const [name, { statements, ms }] of results) {
      const sorted = [...ms].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      process.stdout.write(
        `| ${name} | ${statements} | ${median.toFixed(0)} | ${Math.round((count * 1000) / median)} | ${ms.map((m) => m.toFixed(0)).join(' / ')} |\n`,
      );
    }
  } finally {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The statements `work` sends and its wall time (the deferred event rows written as at commit), rolled back. */
async function measure(t: TestApp, work: (tx: Tx) => Promise<void>): Promise<{ statements: number; ms: number }> {
  let statements = 0;
  let ms = 0;
  await t.dataSource
    .transaction(async (manager) => {
      deferInsertsIn(manager);
      const tx: Tx = { manager, afterCommit: () => undefined };
      const started = performance.now();
      statements = await countStatements(manager, async () => {
        await work(tx);
        await flushDeferredInserts(manager);
      });
      ms = performance.now() - started;
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return { statements, ms };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
