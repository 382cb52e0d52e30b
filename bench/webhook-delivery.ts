/**
 * Webhook delivery: throughput (deliveries per second to a local receiver, rows due at
 * once) and latency (events recorded at a steady rate, from the start of the recording
 * transaction to the receiver's arrival), with the in-process job driver and with Bull on
 * Redis, in the same run, printed side by side. See bench/README.md "Webhook delivery".
 */
import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { ChildProcess, fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { loadConfig } from 'src/config/load-config';
import { Clock } from 'src/core/clock/clock';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { EventRecorder } from 'src/core/events/event-recorder';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { JobQueue } from 'src/core/jobs/job-queue';
import { randomToken } from 'src/core/refs/random-token';
import { UnitOfWork } from 'src/database/unit-of-work';
import { WebhookSweeper } from 'src/webhooks/delivery/webhook-sweeper';
import { newWebhookSecret } from 'src/webhooks/delivery/webhook-signature';
import { WebhookDelivery } from 'src/webhooks/entities/webhook-delivery.entity';
import { Webhook } from 'src/webhooks/entities/webhook.entity';

interface Run {
  driver: string;
  deliveries: number;
  seconds: number;
  perSecond: number;
  received: number;
  duplicates: number;
}

interface Latency {
  driver: string;
  events: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  duplicates: number;
}

const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 5000);
/** Events per second of the latency run, and how long it records them. */
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 500);
const LATENCY_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);
const WARMUP = 200;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHUNK = 250;

/** A customer event of realistic size (about 1.5 KB of JSON). */
const DATA = {
  customer: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`field_${i}`, `value ${i}`])),
  user: { user_id: 1, email: 'bench@example.com', first_name: 'Bench', last_name: 'Mark' },
};

async function main(): Promise<void> {
  const receiver = await startReceiver();
  const runs: Run[] = [];
  const latencies: Latency[] = [];
  try {
    for (const [driver, redisUrl] of [
      ['in-process', undefined],
      ['Bull (Redis)', REDIS_URL],
    ] as const) {
      runs.push(await measure(driver, redisUrl, receiver));
      latencies.push(await measureLatency(driver, redisUrl, receiver));
    }
  } finally {
    receiver.child.kill();
  }
  process.stdout.write(
    `\nWebhook delivery, SQLite file database, receiver (its own process) on 127.0.0.1 answering 200\n\n`,
  );
  process.stdout.write(
    '| driver | deliveries due at once | seconds | deliveries/s | sent twice |\n|---|---:|---:|---:|---:|\n',
  );
  for (const run of runs) {
    process.stdout.write(
      `| ${run.driver} | ${run.deliveries} | ${run.seconds.toFixed(2)} | ${Math.round(run.perSecond)} | ${run.duplicates} |\n`,
    );
  }
  process.stdout.write(
    '\n| driver | events | events/s | p50 ms | p99 ms | max ms | sent twice |\n|---|---:|---:|---:|---:|---:|---:|\n',
  );
  for (const l of latencies) {
    process.stdout.write(
      `| ${l.driver} | ${l.events} | ${l.rate} | ${l.p50.toFixed(0)} | ${l.p99.toFixed(0)} | ${l.max.toFixed(0)} | ${l.duplicates} |\n`,
    );
  }
  const failed = runs.filter((run) => run.received !== run.deliveries + WARMUP || run.duplicates > 0);
  if (failed.length) throw new Error(`receiver counts do not match: ${JSON.stringify(failed)}`);
}

function appConfig(dir: string, redisUrl: string | undefined) {
  return loadConfig({
    ...process.env,
    DB_TYPE: 'sqlite',
    DB_PATH: join(dir, 'bench.sqlite'),
    DB_NAME: `bench_${randomToken(8)}`,
    REDIS_URL: redisUrl ?? '',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    API_USERNAME: 'bench',
    API_PASSWORD: 'bench-password-0123',
    LOG_LEVEL: 'error',
    BILLING_CRON: '',
  });
}

async function measure(driver: string, redisUrl: string | undefined, receiver: Receiver): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-bench-'));
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(appConfig(dir, redisUrl)), {
    logger: ['error'],
  });
  await receiver.reset();
  try {
    const hookId = await seedHook(app, receiver.url);
    progress(`${driver}: warm-up (${WARMUP})`);
    await seedDeliveries(app, hookId, WARMUP);
    await deliverAll(app);
    progress(`${driver}: seeding ${DELIVERIES} deliveries`);
    await seedDeliveries(app, hookId, DELIVERIES);
    progress(`${driver}: delivering`);
    const started = performance.now();
    await deliverAll(app);
    const seconds = (performance.now() - started) / 1000;
    const open = await app.get(DataSource).getRepository(WebhookDelivery).countBy({ status: 'pending' });
    if (open > 0) throw new Error(`${open} deliveries still pending`);
    const report = await receiver.report();
    return {
      driver,
      deliveries: DELIVERIES,
      seconds,
      perSecond: DELIVERIES / seconds,
      received: report.count,
      duplicates: report.duplicates,
    };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Events recorded at RATE a second for LATENCY_SECONDS, each in a transaction of its own
 * through the EventRecorder (so the fan-out writes its delivery and queues it after
 * commit, as a write of the API does); latency is from the start of that transaction to
 * the receiver's arrival. The sweeper runs on its own timer, as in the server.
 */
async function measureLatency(driver: string, redisUrl: string | undefined, receiver: Receiver): Promise<Latency> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-bench-'));
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(appConfig(dir, redisUrl)), {
    logger: ['error'],
  });
  await receiver.reset();
  try {
    await seedHook(app, receiver.url);
    const uow = app.get(UnitOfWork);
    const recorder = app.get(EventRecorder);
    const started = new Map<number, number>();
    const total = RATE * LATENCY_SECONDS;
    const record = (n: number): void => {
      started.set(n, performance.timeOrigin + performance.now());
      void uow.run((tx) =>
        recorder.record(tx, SYSTEM_CONTEXT, { contextStr: 'customer', contextId: n, event: 'update', data: DATA }),
      );
    };
    // Warm-up, then the measured events.
    for (let n = 1; n <= WARMUP; n++) record(n);
    await waitFor(async () => (await receiver.report()).count >= WARMUP, 30_000);
    await receiver.reset();
    started.clear();
    progress(`${driver}: ${total} events at ${RATE}/s`);
    const begin = performance.now();
    let sent = 0;
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - begin) / 1000) * RATE));
        while (sent < due) record(WARMUP + ++sent);
        if (sent >= total) {
          clearInterval(tick);
          resolve();
        }
      }, 5);
    });
    await waitFor(async () => (await receiver.report()).count >= total, 60_000);
    const report = await receiver.report();
    const delays = report.arrivals
      .map(([contextId, at]) => at - (started.get(contextId) ?? NaN))
      .filter((d) => !Number.isNaN(d))
      .sort((a, b) => a - b);
    const at = (q: number): number => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))];
    return {
      driver,
      events: delays.length,
      rate: RATE,
      p50: at(0.5),
      p99: at(0.99),
      max: delays[delays.length - 1],
      duplicates: report.duplicates,
    };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitFor(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > until) throw new Error('timed out waiting for the receiver');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sweeps and waits until nothing is due: every delivery made. */
async function deliverAll(app: INestApplicationContext): Promise<void> {
  const sweeper = app.get(WebhookSweeper);
  const jobs = app.get(JobQueue);
  while ((await sweeper.sweep()) > 0) await jobs.drain();
}

async function seedHook(app: INestApplicationContext, url: string): Promise<number> {
  const inserted = await app
    .get(DataSource)
    .getRepository(Webhook)
    .insert({
      target_url: url,
      event: '*',
      secret: newWebhookSecret(),
      write_datetime: app.get(Clock).now(),
    });
  return (inserted.identifiers[0] as { webhook_id: number }).webhook_id;
}

/** Events and their deliveries written straight to the tables, as the fan-out would. */
async function seedDeliveries(app: INestApplicationContext, hookId: number, count: number): Promise<void> {
  const now = app.get(Clock).now();
  await app.get(DataSource).transaction(async (m) => {
    for (let start = 0; start < count; start += CHUNK) {
      const size = Math.min(CHUNK, count - start);
      const events = await m.insert(
        DomainEvent,
        Array.from({ length: size }, (_, i) => ({
          context_str: 'customer',
          context_id: String(start + i + 1),
          event: 'update',
          data: DATA,
          suppress_webhooks: false,
          event_datetime: now,
        })),
      );
      await m.insert(
        WebhookDelivery,
        events.identifiers.map((id, i) => ({
          webhook_id: hookId,
          domain_event_id: (id as { domain_event_id: number }).domain_event_id,
          message_id: `msg_${randomToken(24)}`,
          context_str: 'customer',
          context_id: String(start + i + 1),
          event: 'update',
          status: 'pending' as const,
          attempts: 0,
          next_attempt_datetime: now,
          write_datetime: now,
        })),
      );
    }
  });
}

interface Report {
  count: number;
  duplicates: number;
  /** [context_id, arrival in ms since the epoch] of each request. */
  arrivals: Array<[number, number]>;
}

interface Receiver {
  child: ChildProcess;
  url: string;
  reset(): Promise<void>;
  report(): Promise<Report>;
}

/** The receiver, in a process of its own (as a real one is): counts, dedupes by webhook-id, times arrivals. */
const RECEIVER_SCRIPT = `
const { createServer } = require('node:http');
const { performance } = require('node:perf_hooks');
let seen = new Set(), count = 0, duplicates = 0, arrivals = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    count++;
    const id = req.headers['webhook-id'];
    if (seen.has(id)) duplicates++;
    seen.add(id);
    arrivals.push([JSON.parse(Buffer.concat(chunks).toString()).context_id, at]);
    res.writeHead(200).end('ok');
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m === 'reset') { seen = new Set(); count = 0; duplicates = 0; arrivals = []; process.send({ reset: true }); }
  else process.send({ count, duplicates, arrivals });
});
`;

async function startReceiver(): Promise<Receiver> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
  const script = join(dir, 'receiver.js');
  writeFileSync(script, RECEIVER_SCRIPT);
  const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(message: string): Promise<T> =>
    new Promise((resolve) => {
      child.once('message', (answer) => resolve(answer as T));
      child.send(message);
    });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m) => resolve((m as { port: number }).port)),
  );
  return {
    child,
    url: `http://127.0.0.1:${port}/hook`,
    reset: async () => {
      await ask('reset');
    },
    report: () => ask<Report>('report'),
  };
}

function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
