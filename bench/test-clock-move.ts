/**
 * A long test-clock move (issue 43, item 7): BENCH_SUBSCRIPTIONS (default 10,000) monthly
 * subscriptions paying by card (the test gateway), each with a customer and a card of its
 * own, BENCH_DECLINING of them (default 1 in 100) on a declining card, so dunning retries
 * run; their cycle starts spread over the month (BENCH_SPREAD=seconds: each its own second,
 * as subscriptions created one by one have; `day`: one moment per day; `same`: one moment),
 * and a webhook hook for BENCH_HOOK_EVENT (default `*`, every event) at a local receiver.
 * Then one `POST /_clock` BENCH_DAYS (30) days ahead, timed, beside a baseline in the same
 * run: the same subscriptions billed by one billing run (in process, as of the end) and
 * collected by one collection pass, with no clock move. Prints one line per figure.
 *
 *   flock /work/bench.lock npm run bench:clock
 *   BENCH_DB=mysql BENCH_SUBSCRIPTIONS=2000 npm run bench:clock
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { In } from 'typeorm';
import { InvoiceCollector } from 'src/billing-runs/collection/invoice-collector';
import { BillingRun } from 'src/billing-runs/runs/billing-run';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { createId } from '../test/support/catalog-fixtures';
import { cloneSubscriptions } from '../test/support/due-subscriptions';
import { newCard } from '../test/support/factories';
import { createTestApp, TestApp } from '../test/support/test-app';
import { startReceiver, WebhookReceiver } from '../test/support/webhook-receiver';

const DAY_MS = 86_400_000;
/** 2026-03-01 10:00 in Chicago. */
const START = new Date('2026-03-01T16:00:00Z');

interface Seeded {
  t: TestApp;
  receiver: WebhookReceiver;
  packages: number[];
  close(): Promise<void>;
}

async function seed(count: number, declining: number, spread: string, hookEvent: string): Promise<Seeded> {
  process.env.DB_TYPE = process.env.BENCH_DB === 'mysql' ? 'mysql' : 'sqlite';
  const workDir = mkdtempSync(join(tmpdir(), 'billing-bench-clock-'));
  const t = await createTestApp({
    TEST_CLOCK: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    DB_PATH: join(workDir, 'bench.sqlite'),
  });
  // The move's progress and where its time went (TestClock's log lines), on request.
  if (process.env.BENCH_LOG) t.app.useLogger(['log', 'warn', 'error']);
  t.clock.set(START);
  const receiver = await startReceiver();
  await t.post('/api/v3/_resthook', { target_url: receiver.url, event: hookEvent }).expect(201);
  const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
  const template = async (number: string, copies: number): Promise<number[]> => {
    const customer = await createId(t, '/api/v3/customer', { company: 'Clock', invoice_delivery: 'print' });
    const card = await createId(t, '/api/v3/creditcard', { customer_id: customer, ...newCard({ number }) });
    const first = await createId(t, '/api/v3/package', {
      customer_id: customer,
      terms_id: 1,
      creditcard_id: card,
      line_items: [{ item_id: plan }],
    });
    return [first, ...(await cloneSubscriptions(t.dataSource, first, copies - 1))];
  };
  const declines = Math.round(count / declining);
  const packages = [
    ...(await template('4242424242424242', count - declines)),
    ...(await template('4000000000000002', declines)),
  ];
  // Cycle starts spread over the month, from tomorrow on.
  const step = spread === 'same' ? 0 : spread === 'day' ? DAY_MS : Math.floor((27 * DAY_MS) / count);
  const base = new Date('2026-03-02T16:00:00Z').getTime();
  for (let i = 0; i < packages.length; i += 500) {
    const ids = packages.slice(i, i + 500);
    for (const [j, id] of ids.entries()) {
      const k = i + j;
      const at = new Date(base + (spread === 'day' ? (k % 27) * step : k * step) - ((base + k * step) % 1000));
      await t.dataSource.manager.update(
        Subscription,
        { package_id: id },
        { start_datetime: at, next_invoice_datetime: at },
      );
    }
  }
  return {
    t,
    receiver,
    packages,
    close: async () => {
      await t.close();
      await receiver.close();
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
  const days = Number(process.env.BENCH_DAYS ?? 30);
  const declining = Number(process.env.BENCH_DECLINING ?? 100);
  const spread = process.env.BENCH_SPREAD ?? 'seconds';
  const hookEvent = process.env.BENCH_HOOK_EVENT ?? '*';
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' '); // stop-check: deliberate, a display of the load average

  const move = await seed(count, declining, spread, hookEvent);
  process.stderr.write(`seeded ${move.packages.length}; load ${load()}\n`);
  const target = new Date(START.getTime() + days * DAY_MS);
  const started = performance.now();
  const res = await move.t.post('/api/v3/_clock', { datetime: target.toISOString() }).timeout(3_600_000);
  const moveSeconds = (performance.now() - started) / 1000;
  if (res.status !== 200) throw new Error(`the move answered ${res.status}: ${JSON.stringify(res.body)}`);
  const m = move.t.dataSource.manager;
  const invoices = await m.countBy(Invoice, { package_id: In(move.packages.slice(0, 1)) });
  const figures = {
    invoices: await m.count(Invoice),
    transactions: await m.count(Transaction),
    deliveries: await m.count(WebhookDelivery),
    received: move.receiver.received.length,
    firstSubscriptionInvoices: invoices,
  };
  await move.close();

  const base = await seed(count, declining, spread, hookEvent);
  const baseStarted = performance.now();
  base.t.clock.set(target);
  await base.t.app.get(BillingRun).run(target);
  await base.t.app.get(InvoiceCollector).collectDue();
  await base.t.drainJobs();
  const baseSeconds = (performance.now() - baseStarted) / 1000;
  await base.close();

  const db = process.env.BENCH_DB === 'mysql' ? 'MariaDB' : 'SQLite';
  process.stdout.write(
    `${db}, ${count} subscriptions (1 in ${declining} declining, spread ${spread}, hook ${hookEvent}), ${days} days: ` +
      `move ${moveSeconds.toFixed(1)} s; baseline (one run + one collection pass) ${baseSeconds.toFixed(1)} s; ` + // stop-check: deliberate, display
      `ratio ${(moveSeconds / baseSeconds).toFixed(2)}; ${JSON.stringify(figures)}; load ${load()}\n`, // stop-check: deliberate, display
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
