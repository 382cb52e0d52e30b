/**
 * Webhook delivery throughput: deliveries per second to a local receiver, with the
 * in-process job driver and with Bull on Redis, measured in the same run and printed
 * side by side. See bench/README.md "Webhook delivery".
 */
import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { AppModule } from 'src/app.module';
import { loadConfig } from 'src/config/load-config';
import { Clock } from 'src/core/clock/clock';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { JobQueue } from 'src/core/jobs/job-queue';
import { randomToken } from 'src/core/refs/random-token';
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
}

const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 2000);
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
  try {
    runs.push(await measure('in-process', undefined, receiver));
    runs.push(await measure('Bull (Redis)', REDIS_URL, receiver));
  } finally {
    await new Promise((resolve) => receiver.server.close(resolve));
  }
  process.stdout.write(`\nWebhook delivery, SQLite file database, receiver on 127.0.0.1 answering 200\n\n`);
  process.stdout.write('| driver | deliveries | seconds | deliveries/s |\n|---|---:|---:|---:|\n');
  for (const run of runs) {
    process.stdout.write(
      `| ${run.driver} | ${run.deliveries} | ${run.seconds.toFixed(2)} | ${Math.round(run.perSecond)} |\n`,
    );
  }
  const failed = runs.filter((run) => run.received !== run.deliveries + WARMUP);
  if (failed.length) throw new Error(`receiver counts do not match: ${JSON.stringify(failed)}`);
}

async function measure(driver: string, redisUrl: string | undefined, receiver: Receiver): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-bench-'));
  const config = loadConfig({
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
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error'] });
  receiver.count = 0;
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
    return { driver, deliveries: DELIVERIES, seconds, perSecond: DELIVERIES / seconds, received: receiver.count };
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
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

interface Receiver {
  server: Server;
  url: string;
  count: number;
}

async function startReceiver(): Promise<Receiver> {
  const receiver = { count: 0 } as Receiver;
  receiver.server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receiver.count++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hook`;
  return receiver;
}

function progress(message: string): void {
  process.stderr.write(`${message}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
