/**
 * Revenue analytics benchmark (issue 39, point 4): on MariaDB, BENCH_SUBSCRIPTIONS
 * subscriptions (default 100,000) with BENCH_MONTHS months of history (default 36) seeded
 * straight into the tables the reports read (mrr_change, invoice, payment_transaction,
 * transaction_applied, invoice_collection, invoice_line), then each `/api/v3/_analytics/*`
 * endpoint and `/dashboard` timed through HTTP on the real application, each beside a
 * plain aggregate query over the same rows (one GROUP BY, no server) as its baseline.
 *
 *   BENCH_SUBSCRIPTIONS=2000 npm run bench:analytics     # what the shared machine allows
 *
 * Prints a Markdown table for bench/RESULTS.md to stdout. Not a test.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createConnection, Connection } from 'mysql2/promise';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { backfillMrrMonths } from 'src/analytics/migrations/1795810000000-mrr-rollup';
import { AppModule } from 'src/app.module';
import { loadConfig } from 'src/config/load-config';
import { configureApp } from 'src/configure-app';
import { CredentialService } from 'src/core/auth/credential.service';

const SUBS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
const MONTHS = Number(process.env.BENCH_MONTHS ?? 36);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DB = 'billing_bench_analytics';
/** `BENCH_REUSE=1`: keep the seeded database between runs (seeding 100,000 subscriptions takes minutes). */
const REUSE = process.env.BENCH_REUSE === '1';
const [USER, PASS] = ['bench', 'bench-analytics-secret-0123'];
/** The history ends with this month (the real clock's, UTC). */
const LAST = new Date().toISOString().slice(0, 7);
const log = (line: string) => process.stderr.write(`${line}\n`);

/** `YYYY-MM` of month index `i` (0 = the first of the history). */
function monthOf(i: number): string {
  const [y, m] = LAST.split('-').map(Number);
  const at = y * 12 + (m - 1) - (MONTHS - 1) + i;
  return `${Math.floor(at / 12)}-${String((at % 12) + 1).padStart(2, '0')}`;
}

/** A small deterministic PRNG (mulberry32), so every run seeds the same rows. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

class Inserter {
  private rows: unknown[][] = [];
  constructor(
    private readonly db: Connection,
    private readonly table: string,
    private readonly columns: string[],
  ) {}
  async add(row: unknown[]): Promise<void> {
    this.rows.push(row);
    if (this.rows.length >= 1000) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.rows.length) return;
    const marks = `(${this.columns.map(() => '?').join(',')})`;
    await this.db.query(
      `INSERT INTO ${this.table} (${this.columns.join(',')}) VALUES ${this.rows.map(() => marks).join(',')}`,
      this.rows.flat(),
    );
    this.rows = [];
  }
}

async function seed(db: Connection, usageItem: number): Promise<Record<string, number>> {
  const rnd = prng(39);
  const stamp = `${LAST}-01 12:00:00`;
  const changes = new Inserter(db, 'mrr_change', [
    'package_id',
    'customer_id',
    'currency_id',
    'change_datetime',
    'month',
    'mrr',
    'delta',
  ]);
  const invoices = new Inserter(db, 'invoice', [
    'invoice_id',
    'token',
    'write_datetime',
    'mod_datetime',
    'customer_id',
    'package_id',
    'date',
    'due_date',
    'currency_id',
    'subtotal',
    'taxes',
    'total',
    'sum_base',
    'sum_usage',
    'sum_onetime',
    'invoice_status_str',
  ]);
  const payments = new Inserter(db, 'payment_transaction', [
    'transaction_id',
    'token',
    'write_datetime',
    'mod_datetime',
    'customer_id',
    'gateway_status',
    'gateway_msg',
    'amount',
    'fee',
    'transaction_type',
    'transaction_date',
    'transaction_datetime',
    'status_str',
    'currency_id',
    'brand_id',
  ]);
  const applied = new Inserter(db, 'transaction_applied', [
    'transaction_id',
    'invoice_id',
    'invoice_customer_id',
    'applied',
    'write_datetime',
  ]);
  const collections = new Inserter(db, 'invoice_collection', [
    'invoice_id',
    'package_id',
    'customer_id',
    'status',
    'failures',
    'first_failed_datetime',
    'created_datetime',
    'mod_datetime',
  ]);
  const lines = new Inserter(db, 'invoice_line', [
    'invoice_id',
    'item_id',
    'line_rate',
    'line_quantity',
    'line_usage',
    'line_subtotal',
    'line_total',
    'tax_taxable',
    'tax_taxed',
    'tax_total',
    'is_usage',
  ]);
  const counts = { mrr_change: 0, invoice: 0, payment_transaction: 0, invoice_collection: 0, invoice_line: 0 };
  let invoiceId = 0;
  for (let sub = 1; sub <= SUBS; sub++) {
    const customer = Math.ceil(sub / 1.5);
    const currency = rnd() < 0.9 ? 1 : 2;
    let mrr = 0;
    const first = Math.floor(rnd() * MONTHS);
    for (let i = first; i < MONTHS; i++) {
      const month = monthOf(i);
      // Starts in its first month; then churns (2 %), moves up or down (5 %) or, churned, comes back (10 %).
      let next = mrr;
      if (i === first) next = 10 * (1 + Math.floor(rnd() * 20));
      else if (mrr === 0) next = rnd() < 0.1 ? 10 * (1 + Math.floor(rnd() * 20)) : 0;
      else if (rnd() < 0.02) next = 0;
      else if (rnd() < 0.05) next = Math.max(10, mrr + 10 * (Math.floor(rnd() * 7) - 3));
      if (next !== mrr) {
        await changes.add([
          sub,
          customer,
          currency,
          `${month}-03 12:00:00`,
          month,
          next.toFixed(2),
          (next - mrr).toFixed(2),
        ]);
        counts.mrr_change++;
        mrr = next;
      }
      if (mrr === 0) continue;
      invoiceId++;
      const date = `${month}-05`;
      const open = i >= MONTHS - 2 || rnd() < 0.03;
      await invoices.add([
        invoiceId,
        `i${invoiceId.toString(36).padStart(11, '0')}`,
        stamp,
        stamp,
        customer,
        sub,
        date,
        `${month}-28`,
        currency,
        mrr.toFixed(2),
        '0.00',
        mrr.toFixed(2),
        mrr.toFixed(2),
        '0.00',
        '0.00',
        open ? 'open-unpaid' : 'closed-paid',
      ]);
      counts.invoice++;
      if (!open) {
        await payments.add([
          invoiceId,
          `t${invoiceId.toString(36).padStart(11, '0')}`,
          stamp,
          stamp,
          customer,
          1,
          'ok',
          mrr.toFixed(2),
          '0.00',
          'pay',
          `${month}-06`,
          `${month}-06 12:00:00`,
          'ok-successful',
          currency,
          1,
        ]);
        await applied.add([invoiceId, invoiceId, customer, mrr.toFixed(2), stamp]);
        counts.payment_transaction++;
      }
      if (rnd() < 0.03) {
        await collections.add([
          invoiceId,
          sub,
          customer,
          open ? 'failed' : 'paid',
          1,
          `${month}-05 12:00:00`,
          stamp,
          stamp,
        ]);
        counts.invoice_collection++;
      }
      if (rnd() < 0.2) {
        await lines.add([invoiceId, usageItem, '0.50', '1', '100', '50.00', '50.00', '0.00', '0.00', '0.00', 1]);
        counts.invoice_line++;
      }
    }
  }
  for (const inserter of [changes, invoices, payments, applied, collections, lines]) await inserter.flush();
  return counts;
}

/** The plain aggregate over the same rows as each report: one GROUP BY straight to MariaDB. */
const MRR_BASELINE = `SELECT currency_id, month, SUM(delta) FROM mrr_change GROUP BY currency_id, month`;
const OPEN_BASELINE = `SELECT currency_id, customer_id, SUM(total) FROM invoice WHERE invoice_status_str LIKE 'open-%' GROUP BY currency_id, customer_id`;
const CASES: Array<{ label: string; path: string; baseline: string; aim: number }> = [
  { label: 'mrr', path: 'mrr', baseline: MRR_BASELINE, aim: 1000 },
  { label: 'churn', path: 'churn', baseline: MRR_BASELINE, aim: 1000 },
  {
    label: 'revenue',
    path: 'revenue',
    baseline: `SELECT currency_id, SUBSTR(date, 1, 7), SUM(total) FROM invoice GROUP BY currency_id, SUBSTR(date, 1, 7)
      UNION ALL SELECT currency_id, SUBSTR(transaction_date, 1, 7), SUM(amount) FROM payment_transaction GROUP BY currency_id, SUBSTR(transaction_date, 1, 7)`,
    aim: 1000,
  },
  { label: 'receivables', path: 'receivables', baseline: OPEN_BASELINE, aim: 1000 },
  {
    label: 'receivables by=customer (limit 500)',
    path: 'receivables?by=customer&limit=500&offset=1000',
    baseline: OPEN_BASELINE,
    aim: 1000,
  },
  {
    label: 'dunning',
    path: 'dunning',
    baseline: `SELECT i.currency_id, ic.status, COUNT(*), SUM(i.total) FROM invoice_collection ic JOIN invoice i ON i.invoice_id = ic.invoice_id GROUP BY i.currency_id, ic.status`,
    aim: 1000,
  },
  {
    label: 'usage',
    path: 'usage',
    baseline: `SELECT l.item_id, SUM(l.line_usage), SUM(l.line_total) FROM invoice_line l WHERE l.is_usage = 1 GROUP BY l.item_id`,
    aim: 1000,
  },
];

const TABLES = [
  'mrr_change',
  'invoice',
  'payment_transaction',
  'transaction_applied',
  'invoice_collection',
  'invoice_line',
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(rounds: number, work: () => Promise<void>): Promise<{ median: number; max: number }> {
  await work(); // warm-up, thrown away
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await work();
    ms.push(performance.now() - start);
  }
  return { median: median(ms), max: Math.max(...ms) };
}

async function main(): Promise<void> {
  const admin = await createConnection({ host: '127.0.0.1', user: 'root', password: '' });
  const [found] = (await admin.query(`SHOW DATABASES LIKE '${DB}'`)) as unknown as [unknown[]];
  const reused = REUSE && found.length > 0;
  if (!reused) {
    await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
    await admin.query(`CREATE DATABASE ${DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  }
  const config = loadConfig({
    ...process.env,
    DB_TYPE: 'mysql',
    DB_NAME: DB,
    API_USERNAME: USER,
    API_PASSWORD: PASS,
    RATE_LIMIT_PER_MINUTE: '0',
    BILLING_CRON: '',
    LOG_LEVEL: 'warn',
    // A slow report is timed, not cut at the default deadline.
    REQUEST_TIMEOUT_MS: '120000',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), { bodyParser: false, logger: ['error', 'warn'] });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  await app.get(CredentialService).bootstrap();
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const auth = `Basic ${Buffer.from(`${USER}:${PASS}`).toString('base64')}`;
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${url}${path}`, {
      ...init,
      headers: { authorization: auth, 'content-type': 'application/json' },
    });
    const body = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
    return body;
  };
  const created = JSON.parse(
    await call('/api/v3/item', {
      method: 'POST',
      body: JSON.stringify({
        name: 'Calls',
        is_usage: true,
        tiersets: [{ pricemodel: 'uni', paycycle: 'mon', tiers: [{ unit_from: 1, unit_to: null, amount: '0.50' }] }],
      }),
    }),
  ) as { response: { id: number } };
  const item = created.response.id;

  const db = await createConnection({ host: '127.0.0.1', user: 'root', password: '', database: DB });
  if (!reused) {
    const seedStart = performance.now();
    log(`seeded ${JSON.stringify(await seed(db, item))} in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    // The MRR rollup is kept by the application's writes, which the seed goes around: built as the migration builds it.
    await db.query('DELETE FROM mrr_month');
    const runner = app.get(DataSource).createQueryRunner();
    await backfillMrrMonths(runner);
    await runner.release();
    await db.query(`ANALYZE TABLE ${TABLES.join(', ')}`);
  }
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [[row]] = (await db.query(`SELECT COUNT(*) AS n FROM ${table}`)) as unknown as [[{ n: number }]];
    counts[table] = Number(row.n);
  }

  const range = `from=${monthOf(0)}&to=${LAST}`;
  const lines = [
    `Subscriptions ${SUBS.toLocaleString('en-US')}, ${MONTHS} months; rows: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`)
      .join(', ')}. ${ROUNDS} timed rounds after one warm-up.`,
    '',
    '| request (all currencies, every month) | server median ms | server max ms | baseline median ms | ratio | load (1 min) | aim ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  const load = () => loadavg()[0].toFixed(1);
  const add = (line: string) => {
    lines.push(line);
    log(line);
  };
  for (const c of CASES) {
    const path = `/api/v3/_analytics/${c.path}${c.path.includes('?') ? '&' : '?'}${range}`;
    try {
      const server = await time(ROUNDS, async () => void (await call(path)));
      const baseline = await time(ROUNDS, async () => void (await db.query(c.baseline)));
      add(
        `| \`${c.label}\` | ${server.median.toFixed(0)} | ${server.max.toFixed(0)} | ${baseline.median.toFixed(0)} | ${(server.median / baseline.median).toFixed(2)} | ${load()} | < ${c.aim} |`,
      );
    } catch (error) {
      add(
        `| \`${c.label}\` | failed: ${error instanceof Error ? error.message.slice(0, 80) : String(error)} | | | | ${load()} | < ${c.aim} |`,
      );
    }
  }
  const page = await time(ROUNDS, async () => void (await call(`/dashboard?${range}&currency=USD`)));
  add(`| \`/dashboard\` (USD) | ${page.median.toFixed(0)} | ${page.max.toFixed(0)} | – | – | ${load()} | < 2000 |`);
  process.stdout.write(`${lines.join('\n')}\n`);
  await app.close();
  await db.end();
  if (!REUSE) await admin.query(`DROP DATABASE IF EXISTS ${DB}`);
  await admin.end();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
