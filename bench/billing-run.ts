/**
 * Billing-run throughput: N due subscriptions (one flat line each, each with a customer of
 * its own, cloned in batched INSERTs) billed by one run as of their cycle start, beside two
 * baselines in the same run (SQLite in a temporary file, or a scratch MariaDB database with
 * BENCH_DB=mysql), each a raw batched INSERT of rows the run wrote, copied: its invoices and
 * invoice lines alone; and every row it inserted (those, its invoices' schedules, its
 * events, its revisions and its billing-cycle keys). The first is the invoicing; the second
 * is all the run has to store, so its ratio is what the engine costs on top of the writes.
 * The run is the compiled command line (`node dist/billing-cli.js`, so `npm run build`
 * first) in a process of its own, whose peak RSS is the run's alone;
 * BENCH_IN_PROCESS=1 runs it in this (ts-node) process instead and also counts the
 * statements it sent per invoice (BENCH_STATEMENTS=1 lists them by shape). BENCH_CLI_SCRIPT
 * runs another build's billing-cli.js on the same seeded rows (before/after pairs).
 *
 *   BENCH_DB=mysql BENCH_SUBSCRIPTIONS=10000 npm run bench:billing
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource, EntityManager, EntityTarget, In, MoreThan, ObjectLiteral } from 'typeorm';
import { BillingRun } from 'src/billing-runs/runs/billing-run';
import { insertRows, insertRowsReturningIds } from 'src/database/insert-row';
import { UnitOfWork } from 'src/database/unit-of-work';
import { DomainEvent } from 'src/core/events/domain-event.entity';
import { Revision } from 'src/core/revisions/revision.entity';
import { InvoiceLine } from 'src/invoices/entities/invoice-line.entity';
import { InvoiceSchedule } from 'src/invoices/entities/invoice-schedule.entity';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { Item } from 'src/items/entities/item.entity';
import { TransactionApplied } from 'src/transactions/entities/transaction-applied.entity';
import { Transaction } from 'src/transactions/entities/transaction.entity';
import { BillingCycle } from 'src/subscriptions/entities/billing-cycle.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { createId } from '../test/support/catalog-fixtures';
import { cloneSubscriptions } from '../test/support/due-subscriptions';
import { createTestApp, TestApp } from '../test/support/test-app';

/** Invoices per baseline transaction, and per INSERT statement (SQLite's bound-variable limit). */
const BATCH = 500;
const ROWS_PER_INSERT = 100;

async function main(): Promise<void> {
  const count = Number(process.env.BENCH_SUBSCRIPTIONS ?? 2000);
  if (!Number.isInteger(count) || count < 1) throw new Error('BENCH_SUBSCRIPTIONS must be a positive integer');
  process.env.DB_TYPE = process.env.BENCH_DB === 'mysql' ? 'mysql' : 'sqlite';
  // A SQLite file, not memory: the peak RSS is then the run's, not the database's.
  const workDir = mkdtempSync(join(tmpdir(), 'billing-bench-runs-'));
  const t = await createTestApp({ LOG_LEVEL: 'error', DB_PATH: join(workDir, 'bench.sqlite') });
  const peak = peakRss();
  try {
    // 2026-03-01 10:00 in Chicago: every subscription's first cycle starts now.
    const asOf = new Date('2026-03-01T16:00:00Z');
    t.clock.set(asOf);
    const template = await seedTemplate(t);
    const clones = await cloneSubscriptions(t.dataSource, template, count - 1);
    const history = Number(process.env.BENCH_HISTORY ?? 0);
    if (!Number.isInteger(history) || history < 0) throw new Error('BENCH_HISTORY must be a whole number');
    if (history > 0) await seedHistory(t, [template, ...clones], history);

    const before = await lastIds(t.dataSource);
    const lastInvoiceBefore = await lastId(t.dataSource, Invoice, 'invoice_id');
    const inProcess = process.env.BENCH_IN_PROCESS === '1';
    const run = inProcess ? await runInProcess(t, asOf) : await runCompiledCli(t, asOf, join(workDir, 'bench.sqlite'));
    if (run.invoices !== count || run.failures > 0) {
      throw new Error(`the run billed ${run.invoices} of ${count} (${run.failures} failures)`);
    }
    const { seconds: runSeconds, statementCounts } = run;
    const peakOfThisProcess = peak.stop();

    const uow = t.app.get(UnitOfWork);
    const baselineSeconds = await copyInvoices(t.dataSource, uow, lastInvoiceBefore);
    const otherRows = await copyOtherRows(t.dataSource, uow, before);
    const allRowsSeconds = baselineSeconds + otherRows.seconds;
    const runRate = count / runSeconds;
    const baselineRate = count / baselineSeconds;
    const allRowsRate = count / allRowsSeconds;
    const versions: Array<{ v: string }> = await t.dataSource.query(
      t.config.db.type === 'mysql' ? 'SELECT VERSION() AS v' : 'SELECT sqlite_version() AS v',
    );
    const version = versions[0].v;
    process.stdout.write(
      `${t.config.db.type} ${version}: ${count} due subscriptions: billing run ${runSeconds.toFixed(1)} s = ` +
        `${Math.round(runRate)} invoices/s; raw batched INSERT of its invoices and lines ${baselineSeconds.toFixed(2)} s = ` +
        `${Math.round(baselineRate)} invoices/s; ratio ${(runRate / baselineRate).toFixed(3)}; ` +
        `raw batched INSERT of every row it inserted (${otherRows.rows} more: ${otherRows.tables}) ` +
        `${allRowsSeconds.toFixed(2)} s = ${Math.round(allRowsRate)} invoices/s; ` +
        `ratio ${(runRate / allRowsRate).toFixed(3)}; ` +
        `peak RSS ${Math.round((inProcess ? peakOfThisProcess : run.peakRss) / 1024 / 1024)} MB ` +
        `(${inProcess ? 'this ts-node process' : 'node dist/billing-cli.js'})` +
        (statementCounts ? `; ${(total(statementCounts) / count).toFixed(1)} statements per invoice` : '') +
        '\n',
    );
    if (statementCounts && process.env.BENCH_STATEMENTS === '1') {
      for (const [shape, n] of [...statementCounts].sort((a, b) => b[1] - a[1])) {
        process.stdout.write(`${(n / count).toFixed(2).padStart(8)}  ${shape}\n`);
      }
    }
  } finally {
    await t.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

interface RunResult {
  seconds: number;
  invoices: number;
  failures: number;
  /** Bytes; of the compiled CLI's process. */
  peakRss: number;
  statementCounts?: Map<string, number>;
}

/** The run in this process, its statements counted. */
async function runInProcess(t: TestApp, asOf: Date): Promise<RunResult> {
  const statements = countStatements(t.dataSource);
  const started = performance.now();
  const summary = await t.app.get(BillingRun).run(asOf);
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    invoices: summary.invoices,
    failures: summary.failures.length,
    peakRss: 0,
    statementCounts: statements.stop(),
  };
}

/**
 * The run as production runs it: `node dist/billing-cli.js --as-of`, on this bench's
 * database, under /usr/bin/time for its peak RSS (the wall time includes the CLI's start,
 * as an operator's run does).
 */
async function runCompiledCli(t: TestApp, asOf: Date, sqlitePath: string): Promise<RunResult> {
  // BENCH_CLI_SCRIPT: another build's billing-cli.js (e.g. a copy of an older dist) to compare.
  const cli = resolve(process.env.BENCH_CLI_SCRIPT ?? join(__dirname, '..', 'dist', 'billing-cli.js'));
  if (!existsSync(cli)) throw new Error(`${cli} is missing: npm run build first`);
  const env = {
    ...process.env,
    DB_TYPE: t.config.db.type,
    DB_PATH: sqlitePath,
    DB_NAME: t.config.db.name,
    LOG_LEVEL: 'error',
    BILLING_CRON: '',
  };
  // Node's flags as an operator runs the CLI (package.json `billing:built`: its heap budget),
  // then BENCH_CLI_NODE_OPTIONS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (a flag given
  // again wins).
  const nodeOptions = [
    ...builtCliNodeFlags(),
    ...(process.env.BENCH_CLI_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
  ];
  // BENCH_CLI_WORKERS: the run in that many processes (`--workers`, MySQL/MariaDB); the peak
  // RSS /usr/bin/time gives is then the largest process's, not their sum.
  const workers = process.env.BENCH_CLI_WORKERS ? ['--workers', process.env.BENCH_CLI_WORKERS] : [];
  const started = performance.now();
  const out = await new Promise<string>((done, fail) => {
    execFile(
      '/usr/bin/time',
      ['-f', 'peak-rss-kb %M', process.execPath, ...nodeOptions, cli, '--as-of', asOf.toISOString(), ...workers],
      { env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => (error ? fail(new Error(`${error.message}\n${stderr}`)) : done(`${stdout}${stderr}`)),
    );
  });
  const seconds = (performance.now() - started) / 1000;
  const stated = (label: string): number => Number(new RegExp(`${label}:? (\\d+)`).exec(out)?.[1] ?? NaN);
  return {
    seconds,
    invoices: stated('invoices'),
    failures: stated('failures'),
    peakRss: stated('peak-rss-kb') * 1024,
  };
}

async function seedTemplate(t: TestApp): Promise<number> {
  const plan = await createId(t, '/api/v3/item', { name: 'Plan', pricemodel: { pricemodel: 'fla', base: 10 } });
  const customer = await createId(t, '/api/v3/customer', { company: 'Bench subscriptions' });
  return createId(t, '/api/v3/package', { customer_id: customer, line_items: [{ item_id: plan }] });
}

/**
 * BENCH_HISTORY: `perSubscription` earlier invoices of each subscription, each paid by a
 * check, as a subscription billed for months has: what presenting a subscription reads grows
 * with them. Copies of one invoice and its payment made through the API, in batched INSERTs.
 */
async function seedHistory(t: TestApp, packageIds: number[], perSubscription: number): Promise<void> {
  const m = t.dataSource.manager;
  const subs = await m.find(Subscription, { select: { package_id: true, customer_id: true } });
  const customerOf = new Map(subs.map((s) => [s.package_id, s.customer_id]));
  const item = await m.findOneByOrFail(Item, { name: 'Plan' });
  const customer = customerOf.get(packageIds[0]);
  const first = await createId(t, '/api/v3/invoice', {
    customer_id: customer,
    date: '2026-02-01',
    line_items: [{ item_id: item.item_id }],
  });
  const payment = await createId(t, '/api/v3/transaction', {
    customer_id: customer,
    transaction_type: 'pay',
    gateway_method: 'check',
    amount: '10.00',
    applied_to: [{ invoice_id: first }],
  });
  const { invoice_id: _invoice, ...invoice } = await m.findOneByOrFail(Invoice, { invoice_id: first });
  const { transaction_id: _payment, ...transaction } = await m.findOneByOrFail(Transaction, {
    transaction_id: payment,
  });
  const { transaction_applied_id: _applied, ...applied } = await m.findOneByOrFail(TransactionApplied, {
    transaction_id: payment,
  });
  // The template's own rows go: only the copies are history (the run's customer figures stay its own).
  await m.delete(TransactionApplied, { transaction_id: payment });
  await m.delete(Transaction, { transaction_id: payment });
  await m.delete(InvoiceSchedule, { invoice_id: first });
  await m.delete(InvoiceLine, { invoice_id: first });
  await m.delete(Invoice, { invoice_id: first });
  const owners = packageIds.flatMap((package_id) =>
    Array.from({ length: perSubscription }, () => ({ package_id, customer_id: customerOf.get(package_id)! })),
  );
  for (let at = 0; at < owners.length; at += ROWS_PER_INSERT) {
    const part = owners.slice(at, at + ROWS_PER_INSERT);
    const token = (kind: string, i: number): string => `${kind}${(at + i).toString(36)}`;
    const invoiceIds = await insertRowsReturningIds(
      m,
      Invoice,
      part.map((owner, i) => ({ ...invoice, ...owner, token: token('h', i), refnumber: null, external_key: null })),
    );
    const paymentIds = await insertRowsReturningIds(
      m,
      Transaction,
      part.map((owner, i) => ({
        ...transaction,
        customer_id: owner.customer_id,
        token: token('p', i),
        external_key: null,
      })),
    );
    await insertRows(
      m,
      TransactionApplied,
      part.map((owner, i) => ({
        ...applied,
        transaction_id: paymentIds[i],
        invoice_id: invoiceIds[i],
        invoice_customer_id: owner.customer_id,
      })),
    );
  }
}

/** The baseline: the run's invoices and lines written again as copies, BATCH invoices per transaction. */
async function copyInvoices(dataSource: DataSource, uow: UnitOfWork, afterId: number): Promise<number> {
  const invoices = await dataSource.manager.find(Invoice, {
    where: { invoice_id: MoreThan(afterId) },
    order: { invoice_id: 'ASC' },
  });
  const lines = await dataSource.manager.find(InvoiceLine, {
    where: { invoice_id: In(invoices.map((i) => i.invoice_id).slice(0, 1)) },
  });
  const started = performance.now();
  for (let at = 0; at < invoices.length; at += BATCH) {
    const batch = invoices.slice(at, at + BATCH);
    await uow.run(async (tx) => {
      for (let row = 0; row < batch.length; row += ROWS_PER_INSERT) {
        await copyBatch(tx.manager, batch.slice(row, row + ROWS_PER_INSERT), lines);
      }
    });
  }
  return (performance.now() - started) / 1000;
}

async function copyBatch(m: EntityManager, invoices: Invoice[], lineTemplate: InvoiceLine[]): Promise<void> {
  const ids = await insertRowsReturningIds(
    m,
    Invoice,
    invoices.map(({ invoice_id: _id, ...row }, i) => ({
      ...row,
      token: `c${_id}x${i}`.slice(0, 12),
      external_key: null,
    })),
  );
  await insertRowsReturningIds(
    m,
    InvoiceLine,
    ids.flatMap((invoice_id) => lineTemplate.map(({ line_item_id: _line, ...line }) => ({ ...line, invoice_id }))),
  );
}

/**
 * The tables a run inserts into besides invoice and invoice_line, each with how a copy of a
 * row stays clear of the original's unique keys. A row of these is the run's when its id is
 * past the table's last one before the run.
 */
const OTHER_INSERTED_TABLES: ReadonlyArray<{
  entity: EntityTarget<ObjectLiteral>;
  id: string;
  copy: (row: ObjectLiteral) => ObjectLiteral;
}> = [
  { entity: InvoiceSchedule, id: 'invoice_schedule_id', copy: (r) => ({ ...r, token: copyToken(r) }) },
  { entity: DomainEvent, id: 'domain_event_id', copy: (r) => r },
  { entity: Revision, id: 'revision_id', copy: (r) => r },
  // Unique on (package_id, cycle_start): the copy names no package.
  { entity: BillingCycle, id: 'billing_cycle_id', copy: (r) => ({ ...r, package_id: -r.package_id }) },
];

function copyToken(row: ObjectLiteral): string {
  return `k${row.invoice_schedule_id}`.slice(0, 12);
}

/** Each of OTHER_INSERTED_TABLES' last id (0 when empty). */
async function lastIds(dataSource: DataSource): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  for (const { entity, id } of OTHER_INSERTED_TABLES) last.set(id, await lastId(dataSource, entity, id));
  return last;
}

/** A table's last id (0 when empty). */
async function lastId(dataSource: DataSource, entity: EntityTarget<ObjectLiteral>, id: string): Promise<number> {
  const row = await dataSource.manager
    .createQueryBuilder(entity, 'e')
    .select(`MAX(e.${id})`, 'last')
    .getRawOne<{ last: number | string | null }>();
  return Number(row?.last ?? 0);
}

/**
 * The second baseline's other part: the rows the run inserted into OTHER_INSERTED_TABLES
 * written again as copies, BATCH rows per transaction, ROWS_PER_INSERT per INSERT. Each
 * batch is read before its clock starts: only the writing is timed.
 */
async function copyOtherRows(
  dataSource: DataSource,
  uow: UnitOfWork,
  before: Map<string, number>,
): Promise<{ seconds: number; rows: number; tables: string }> {
  let seconds = 0;
  let rows = 0;
  const counts: string[] = [];
  const lastAfterRun = await lastIds(dataSource);
  for (const { entity, id, copy } of OTHER_INSERTED_TABLES) {
    const last = lastAfterRun.get(id)!;
    let after = before.get(id)!;
    let copied = 0;
    while (after < last) {
      const batch: ObjectLiteral[] = await dataSource.manager
        .createQueryBuilder(entity, 'e')
        .where(`e.${id} > :after AND e.${id} <= :last`, { after, last })
        .orderBy(`e.${id}`, 'ASC')
        .take(BATCH)
        .getMany();
      if (batch.length === 0) break;
      after = Number(batch[batch.length - 1][id]);
      const copies = batch.map((row) => {
        const { [id]: _id, ...rest } = copy(row);
        return rest;
      });
      const started = performance.now();
      await uow.run(async (tx) => {
        for (let at = 0; at < copies.length; at += ROWS_PER_INSERT) {
          await insertRows(tx.manager, entity, copies.slice(at, at + ROWS_PER_INSERT));
        }
      });
      seconds += (performance.now() - started) / 1000;
      copied += batch.length;
    }
    rows += copied;
    counts.push(`${dataSource.getMetadata(entity).tableName} ${copied}`);
  }
  return { seconds, rows, tables: counts.join(', ') };
}

/**
 * Counts the statements the data source sends while it runs, by shape (the first 160
 * characters, numbers blanked): statements per invoice, and with BENCH_STATEMENTS=1 which.
 */
function countStatements(dataSource: DataSource): { stop(): Map<string, number> } {
  const counts = new Map<string, number>();
  const logger = dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  // Shaping every statement costs CPU the run would then be charged for: only when listed.
  const byShape = process.env.BENCH_STATEMENTS === '1';
  logger.logQuery = (query, parameters, runner): void => {
    const shape = byShape ? query.slice(0, 160).replace(/\d+/g, 'N').replace(/\s+/g, ' ') : 'all';
    counts.set(shape, (counts.get(shape) ?? 0) + 1);
    logQuery(query, parameters, runner);
  };
  return {
    stop: () => {
      logger.logQuery = logQuery;
      return counts;
    },
  };
}

function total(counts: Map<string, number>): number {
  let sum = 0;
  for (const n of counts.values()) sum += n;
  return sum;
}

/** The largest resident set seen while it runs (sampled every 50 ms). */
function peakRss(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

/** The Node flags of package.json's `billing:built` (`node <flags> dist/billing-cli.js`). */
function builtCliNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = (pkg.scripts['billing:built'] ?? '').split(' ').filter(Boolean);
  return words.filter((word) => word.startsWith('--'));
}
