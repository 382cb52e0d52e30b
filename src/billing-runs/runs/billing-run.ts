import { Injectable, Logger } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource, In, IsNull } from 'typeorm';
import { SYSTEM_CONTEXT } from 'src/core/context/request-context';
import { groupBy } from 'src/core/collections/group-by';
import { ZERO } from 'src/core/money/decimal';
import { RevisionService } from 'src/core/revisions/revision.service';
import { accountDate } from 'src/core/time/account-date';
import { WireFormat } from 'src/core/wire/wire-format';
import { lockFreeIds, writeUnitsInFlight } from 'src/database/dialect';
import { EntityReader, plainReader } from 'src/database/entity-reader';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { InvoiceLine } from 'src/invoices/entities/invoice-line.entity';
import { Invoice } from 'src/invoices/entities/invoice.entity';
import { PricingCatalog } from 'src/invoices/invoice-line-pricer';
import { PricingInputsLoader } from 'src/invoices/pricing-inputs-loader';
import { ReferenceService } from 'src/reference/reference.service';
import { SubscriptionLine } from 'src/subscriptions/entities/subscription-line.entity';
import { Subscription } from 'src/subscriptions/entities/subscription.entity';
import { SubscriptionCycleBilling } from 'src/subscriptions/subscription-cycle-billing';
import { SubscriptionUsage } from 'src/subscriptions/subscription-usage';
import { withLockedPaymethods } from '../collection/collection-enrollment';
import { dueAction } from './due-action';
import { dueSubscriptions, readDueSubscriptions } from './due-subscriptions';
import { acquireRunLock } from './sqlite-run-lock';
import { BillingRunListener, BillingRunSummary, describeTotals, RunInvoice, RunWorker } from './run-summary';

/** Due subscriptions read per query: bounded memory however many are due. */
const BATCH = 500;
/** Subscriptions billed at once: their units share group commits (SQLite) or use the pool (MySQL). */
const CONCURRENCY = 4;
/** A run as of a moment long after the last one bills every cycle up to it, but never loops forever. */
const MAX_CYCLES_PER_SUBSCRIPTION = 1000;

export interface BillingRunOptions {
  dryRun?: boolean;
  listener?: BillingRunListener;
  /** Where this worker starts (every worker still reaches every due subscription). */
  worker?: RunWorker;
  /** SQLite: how long to wait for another process's run to end (default 0: report it and bill nothing). */
  waitMs?: number;
}

/** What a cycle's unit is given, read before it: pulled usage, the batch's pricing catalog. */
interface CycleInputs {
  usage?: ReadonlyMap<number, Decimal>;
  catalog: PricingCatalog;
}

/** What a summary shows of an invoice, and of each of its lines. */
type SummaryInvoice = Pick<Invoice, 'invoice_id' | 'date' | 'currency_id' | 'total'>;
type SummaryLine = Pick<InvoiceLine, 'line_item_id' | 'invoice_id' | 'descrip' | 'line_origin' | 'line_subtotal'>;

/** One subscription's next cycle in a batch's unit, with what was read for it before the unit. */
interface BatchCycle {
  id: number;
  cycleStart: Date;
  usage?: ReadonlyMap<number, Decimal>;
}

type UnitOutcome = { kind: 'invoiced'; invoice: RunInvoice } | { kind: 'moved' | 'busy' | 'resumed' | 'empty' };

interface IssuedCycle {
  sub: Subscription;
  cycleStart: Date;
  invoiceId: number;
}

/**
 * Thrown at the end of a dry run's unit, so what it wrote is rolled back and what it built
 * comes out: the outcome of each cycle it billed, and the subscription as it stood where it
 * stopped for usage still to pull (null when nothing more is due), or the failure it met.
 */
class DryRunRollback extends Error {
  constructor(
    readonly outcomes: UnitOutcome[],
    readonly pending: Subscription | null,
    /** What made a cycle fail: the run stops that subscription there, as a real run does. */
    readonly failure?: unknown,
  ) {
    super('dry run');
  }
}

/**
 * A billing run as of a moment (DESIGN §6 "Billing runs"): every subscription whose next
 * cycle has started is billed (the invoice with its invoice/insert, the advance of
 * `next_invoice_datetime`, `expire_recurs`, package/generate and the `billing_cycle` key).
 * The next cycles of a batch are billed in a few units (billBatch); further cycles, and a
 * batch whose unit failed, in ONE unit per cycle. A unit re-reads the subscriptions under
 * their row locks (MySQL/MariaDB: `FOR UPDATE SKIP LOCKED`, so a second worker skips a row
 * the first is billing; SQLite has one writer) and bills only if the cycle it was asked to
 * bill is still the next one, so runs on several workers at once, or a run repeated after
 * a crash, bill each cycle exactly once. Usage is pulled from USAGE_URL (when set) before
 * the unit. A failure is logged for its subscription and the run goes on.
 */
@Injectable()
export class BillingRun {
  private readonly logger = new Logger('BillingRun');
  // Only the columns a summary shows, without the query builder: whole rows, or `find`'s
  // hydration, cost a run's CPU for nothing.
  private readonly invoiceSummaries: EntityReader<SummaryInvoice>;
  private readonly lineSummaries: EntityReader<SummaryLine>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly wire: WireFormat,
    private readonly reference: ReferenceService,
    private readonly revisions: RevisionService,
    private readonly cycleBilling: SubscriptionCycleBilling,
    private readonly pricing: PricingInputsLoader,
    private readonly usage: SubscriptionUsage,
  ) {
    this.invoiceSummaries = new EntityReader(dataSource, {
      entity: Invoice,
      alias: 'i',
      columns: ['date', 'currency_id', 'total'],
    });
    this.lineSummaries = new EntityReader(dataSource, {
      entity: InvoiceLine,
      alias: 'l',
      columns: ['invoice_id', 'descrip', 'line_origin', 'line_subtotal'],
    });
  }

  /**
   * On a SQLite file one run at a time (sqlite-run-lock.ts): a second waits up to
   * `options.waitMs` for the first to end, then runs (and finds billed what the first
   * billed); still busy after that, it bills nothing and says so, without failures.
   */
  async run(asOf: Date, options: BillingRunOptions = {}): Promise<BillingRunSummary> {
    const lock = await acquireRunLock(this.dataSource.options, options.waitMs ?? 0, (pid) =>
      options.listener?.waiting?.(pid),
    );
    if (lock.kind === 'busy') {
      const note = `a billing run is in progress (process ${lock.holderPid}): this one billed nothing; that one bills every due cycle`;
      this.logger.log(`Billing run as of ${asOf.toISOString()} not started: ${note}`);
      const summary = { asOf, dryRun: options.dryRun ?? false, due: 0, invoices: 0, billed: {}, failures: [] };
      return Object.assign(summary, { inProgressElsewhere: note });
    }
    try {
      return await this.runHoldingLock(asOf, options);
    } finally {
      await lock.release();
    }
  }

  private async runHoldingLock(asOf: Date, options: BillingRunOptions): Promise<BillingRunSummary> {
    const dryRun = options.dryRun ?? false;
    const listener = options.listener ?? {};
    const summary: BillingRunSummary = { asOf, dryRun, due: 0, invoices: 0, billed: {}, failures: [] };
    summary.due = await dueSubscriptions(this.dataSource.manager, asOf).getCount();
    listener.started?.(summary.due);
    let done = 0;
    // Due subscriptions in package order, from the worker's starting point round to it.
    const start = options.worker ? await this.startOf(asOf, summary.due, options.worker) : 0;
    let afterId = start;
    let wrapped = start === 0;
    for (;;) {
      const batch = await readDueSubscriptions(this.dataSource.manager, asOf, {
        where: wrapped && start > 0 ? 'e.package_id > :afterId AND e.package_id <= :start' : 'e.package_id > :afterId',
        params: { afterId, start },
        tail: `ORDER BY e.package_id ASC LIMIT ${BATCH}`,
      });
      if (batch.length === 0) {
        if (wrapped) break;
        wrapped = true;
        afterId = 0;
        continue;
      }
      afterId = batch[batch.length - 1].package_id;
      const catalog = await this.catalogOf(batch);
      const progressed = (): void => {
        done++;
        listener.progressed?.(done, Math.max(done, summary.due));
      };
      // A dry run bills each cycle in a unit rolled back at its end: nothing to share.
      const rest = dryRun ? batch : await this.billBatch(batch, asOf, summary, listener, catalog, progressed);
      await inParallel(rest, CONCURRENCY, async (sub) => {
        if (dryRun) await this.dryRunSubscription(sub, asOf, summary, listener, catalog);
        else await this.billSubscription(sub, asOf, summary, listener, catalog);
        progressed();
      });
    }
    if (summary.due > 0 || summary.failures.length > 0) {
      this.logger.log(
        `Billing run as of ${asOf.toISOString()}${dryRun ? ' (dry run)' : ''}: ${summary.invoices} invoices, ` +
          `${summary.failures.length} failures, billed ${describeTotals(summary.billed)}`,
      );
    }
    return summary;
  }

  /**
   * Where worker `index` of `count` starts (the package id it goes on after): the
   * `index`/`count` point of the due subscriptions in package order, so workers started
   * together each begin on their own share instead of all locking the same first batch
   * (a batch a worker finds locked is billed one by one after it). Each goes on round to its
   * start, past the shares the others have billed meanwhile (no longer due), so every due
   * subscription is reached whatever a worker's speed.
   */
  private async startOf(asOf: Date, due: number, worker: RunWorker): Promise<number> {
    const skip = Math.floor((due * worker.index) / worker.count);
    if (skip === 0) return 0;
    const row = await dueSubscriptions(this.dataSource.manager, asOf)
      .select('p.package_id', 'package_id')
      .orderBy('p.package_id', 'ASC')
      .offset(skip - 1)
      .limit(1)
      .getRawOne<{ package_id: number | string }>();
    return row ? Number(row.package_id) : 0;
  }

  /**
   * The items and current tiersets a batch's live lines bill at, read once for the batch
   * (three or four statements) instead of once per cycle; each unit still reads its own lines.
   */
  private async catalogOf(batch: Subscription[]): Promise<PricingCatalog> {
    const rows: Array<{ item_id: number }> = await this.dataSource.manager
      .createQueryBuilder(SubscriptionLine, 'l')
      .select('DISTINCT l.item_id', 'item_id')
      .where({ package_id: In(batch.map((s) => s.package_id)), cancel_datetime: IsNull() })
      .getRawMany();
    return this.pricing.catalog(
      this.dataSource.manager,
      rows.map((r) => Number(r.item_id)),
    );
  }

  /**
   * The next cycle of every subscription of a batch in unitsPerBatch units: each locks its
   * rows at once (MySQL/MariaDB: rows another transaction holds are skipped), bills each cycle
   * as its own unit would, and writes its deferred rows (events, revisions) in multi-row
   * INSERTs at its end. Usage is pulled before the units; a subscription whose pull failed is
   * logged and left out. Returns the subscriptions left to units of their own: those with more
   * cycles due, those a unit found locked, and all of a unit that failed (so a failure is one
   * subscription's, as without batching).
   */
  private async billBatch(
    batch: Subscription[],
    asOf: Date,
    summary: BillingRunSummary,
    listener: BillingRunListener,
    catalog: PricingCatalog,
    progressed: () => void,
  ): Promise<Subscription[]> {
    const cycles: BatchCycle[] = [];
    await inParallel(batch, CONCURRENCY, async (sub) => {
      const action = dueAction(sub, asOf, this.wire.timezone);
      if (action.kind === 'none') return progressed();
      try {
        const usage =
          action.kind === 'bill' ? await this.cycleBilling.pullUsage(this.dataSource.manager, sub) : undefined;
        cycles.push({ id: sub.package_id, cycleStart: sub.next_invoice_datetime!, usage });
      } catch (error) {
        this.failed(summary, sub.package_id, asOf, error);
        progressed();
      }
    });
    if (cycles.length === 0) return [];
    cycles.sort((a, b) => a.id - b.id);
    // Units in flight at once, each on a connection of its own: the statements are round trips.
    // A batch's cycles are billed in as many units at once as the database writes usefully,
    // each in a transaction of its own (database/dialect.ts; on MySQL/MariaDB three units beat
    // two in five alternating pairs of 20,000 or 30,000 due; at 100,000 one pair went each
    // way: bench/RESULTS.md).
    const parts = chunk(cycles, Math.ceil(cycles.length / writeUnitsInFlight(this.dataSource)));
    const outcomes = new Map<number, UnitOutcome>();
    const failedIds = new Set<number>();
    await Promise.all(
      parts.map(async (part, i) => {
        // A unit started in a later turn of the event loop is not grouped with the one before.
        for (let turn = 0; turn < i; turn++) await new Promise((next) => setImmediate(next));
        try {
          const billed = await this.uow.run((tx) => this.billBatchIn(tx, part, asOf, catalog));
          for (const [id, outcome] of billed) outcomes.set(id, outcome);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          this.logger.warn(`A batch of ${part.length} failed (${reason}): billing its subscriptions one by one`);
          for (const { id } of part) failedIds.add(id);
        }
      }),
    );
    const again: number[] = [];
    // Locked by another unit (maybe this batch's other one, for a row it writes): tried alone after.
    const busy = new Set<number>();
    for (const { id } of cycles) {
      const outcome = outcomes.get(id);
      if (!outcome) continue;
      if (outcome.kind === 'invoiced') this.invoiced(summary, listener, outcome.invoice);
      // Moved: another run billed this cycle meanwhile, and may have stopped there (a later
      // cycle due as well is then this run's to bill, as after one it billed itself).
      if (outcome.kind === 'busy') busy.add(id);
      else again.push(id);
    }
    // Those billed (here or by another run) may have more cycles due: one read tells which.
    const behind = again.length
      ? await readDueSubscriptions(this.dataSource.manager, asOf, {
          where: 'e.package_id IN (:...again)',
          params: { again },
          tail: 'ORDER BY e.package_id ASC',
        })
      : [];
    for (let i = behind.length; i < again.length; i++) progressed();
    return [...batch.filter((sub) => failedIds.has(sub.package_id) || busy.has(sub.package_id)), ...behind];
  }

  /** The batch's unit: its rows locked at once, then the next cycles of those it holds, billed at once. */
  private async billBatchIn(
    tx: Tx,
    cycles: BatchCycle[],
    asOf: Date,
    catalog: PricingCatalog,
  ): Promise<Map<number, UnitOutcome>> {
    const locked = await lockBatchForBilling(
      tx,
      cycles.map((c) => c.id),
    );
    const held = cycles.flatMap((cycle) => {
      const sub = locked.get(cycle.id);
      return sub ? [{ sub, cycleStart: cycle.cycleStart, usage: cycle.usage }] : [];
    });
    const outcomes = await withLockedPaymethods(tx.manager, locked.values(), () =>
      this.billLockedCycles(tx, held, asOf, catalog, false),
    );
    for (const cycle of cycles) if (!locked.has(cycle.id)) outcomes.set(cycle.id, { kind: 'busy' });
    return outcomes;
  }

  private invoiced(summary: BillingRunSummary, listener: BillingRunListener, invoice: RunInvoice): void {
    summary.invoices++;
    summary.billed[invoice.currency] = (summary.billed[invoice.currency] ?? ZERO).plus(invoice.total);
    listener.invoiced?.(invoice);
  }

  private failed(summary: BillingRunSummary, id: number, asOf: Date, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    summary.failures.push({ packageId: id, reason });
    this.logger.error(`Subscription ${id} not billed as of ${asOf.toISOString()}: ${reason}`);
  }

  /**
   * Every cycle of one subscription due as of `asOf`, each in its own unit; a failure is
   * logged and kept. `batched` is its row as the batch read it; later cycles read it again.
   */
  private async billSubscription(
    batched: Subscription,
    asOf: Date,
    summary: BillingRunSummary,
    listener: BillingRunListener,
    catalog: PricingCatalog,
  ): Promise<void> {
    const id = batched.package_id;
    try {
      for (let cycles = 0; cycles < MAX_CYCLES_PER_SUBSCRIPTION; cycles++) {
        const sub = cycles === 0 ? batched : await this.dataSource.manager.findOneBy(Subscription, { package_id: id });
        if (!sub) return;
        const action = dueAction(sub, asOf, this.wire.timezone);
        if (action.kind === 'none') return;
        const usage =
          action.kind === 'bill' ? await this.cycleBilling.pullUsage(this.dataSource.manager, sub) : undefined;
        const outcome = await this.billCycle(id, sub.next_invoice_datetime!, asOf, { usage, catalog });
        if (outcome.kind === 'busy') return;
        if (outcome.kind === 'invoiced') this.invoiced(summary, listener, outcome.invoice);
      }
    } catch (error) {
      this.failed(summary, id, asOf, error);
    }
  }

  /**
   * A dry run of one subscription (DESIGN §6: the run without the commit): every cycle due as
   * of `asOf`, billed one after the other as the real run bills them (each on what the one
   * before wrote: the next cycle start, `expire_recurs`, setup fees once, prorations used)
   * in ONE unit rolled back at its end, so the same invoices, lines and failures come out and
   * nothing is written. Usage pulled from USAGE_URL is an outside call, never made inside a
   * unit: then each cycle's usage is pulled before a unit that replays the cycles before it.
   */
  private async dryRunSubscription(
    batched: Subscription,
    asOf: Date,
    summary: BillingRunSummary,
    listener: BillingRunListener,
    catalog: PricingCatalog,
  ): Promise<void> {
    const id = batched.package_id;
    const pulls = this.usage.pulls;
    const usages: Array<ReadonlyMap<number, Decimal> | undefined> = [];
    let outcomes: UnitOutcome[] = [];
    let failure: unknown;
    try {
      let pending: Subscription | null = batched;
      while (pending && failure === undefined && usages.length < MAX_CYCLES_PER_SUBSCRIPTION) {
        if (pulls) {
          const action = dueAction(pending, asOf, this.wire.timezone);
          const m = this.dataSource.manager;
          usages.push(action.kind === 'bill' ? await this.cycleBilling.pullUsage(m, pending) : undefined);
        }
        ({ outcomes, pending, failure } = await this.dryRunCycles(id, asOf, catalog, pulls ? usages : null));
      }
    } catch (error) {
      failure = error;
    }
    // The cycles billed before a failing one are reported, then the failure, as the real run does.
    for (const outcome of outcomes) if (outcome.kind === 'invoiced') this.invoiced(summary, listener, outcome.invoice);
    if (failure !== undefined) this.failed(summary, id, asOf, failure);
  }

  /**
   * The dry run's unit: the subscription's due cycles billed in turn, then everything rolled
   * back. With `usages`, cycle k bills `usages[k]` and the unit stops at the first cycle
   * whose usage is not pulled yet, handing back the subscription as it stands there.
   */
  private async dryRunCycles(
    id: number,
    asOf: Date,
    catalog: PricingCatalog,
    usages: Array<ReadonlyMap<number, Decimal> | undefined> | null,
  ): Promise<{ outcomes: UnitOutcome[]; pending: Subscription | null; failure?: unknown }> {
    try {
      await this.uow.run(async (tx) => {
        const outcomes: UnitOutcome[] = [];
        for (let k = 0; k < MAX_CYCLES_PER_SUBSCRIPTION; k++) {
          const sub = await lockForBilling(tx, id);
          if (!sub || dueAction(sub, asOf, this.wire.timezone).kind === 'none') break;
          if (usages && k === usages.length) throw new DryRunRollback(outcomes, sub);
          const held = [{ sub, cycleStart: sub.next_invoice_datetime!, usage: usages?.[k] }];
          try {
            outcomes.push((await this.billLockedCycles(tx, held, asOf, catalog, true)).get(id)!);
          } catch (failure) {
            throw new DryRunRollback(outcomes, null, failure);
          }
        }
        throw new DryRunRollback(outcomes, null);
      });
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
      return { outcomes: error.outcomes, pending: error.pending, failure: error.failure };
    }
    return { outcomes: [], pending: null };
  }

  /** The unit of one cycle: a no-op unless `cycleStart` is still the subscription's next cycle. */
  private billCycle(id: number, cycleStart: Date, asOf: Date, inputs: CycleInputs): Promise<UnitOutcome> {
    return this.uow.run((tx) => this.billCycleIn(tx, id, cycleStart, asOf, inputs));
  }

  /** The unit's body: bill, resume after a suspension, or nothing when another run got there first. */
  private async billCycleIn(
    tx: Tx,
    id: number,
    cycleStart: Date,
    asOf: Date,
    inputs: CycleInputs,
  ): Promise<UnitOutcome> {
    const sub = await lockForBilling(tx, id);
    if (!sub) return { kind: 'busy' };
    const held = [{ sub, cycleStart, usage: inputs.usage }];
    const outcomes = await this.billLockedCycles(tx, held, asOf, inputs.catalog, false);
    return outcomes.get(id)!;
  }

  /**
   * Bills each `sub` (read under its row lock) unless `cycleStart` is no longer its next
   * cycle, or resumes it after a suspension; those to bill go through billNextCycles at
   * once (a fixed number of statements however many), and are described together (with
   * their lines when `withLines`: a dry run lists them, a real run only counts and sums).
   */
  private async billLockedCycles(
    tx: Tx,
    held: Array<{ sub: Subscription; cycleStart: Date; usage?: ReadonlyMap<number, Decimal> }>,
    asOf: Date,
    catalog: PricingCatalog,
    withLines: boolean,
  ): Promise<Map<number, UnitOutcome>> {
    const outcomes = new Map<number, UnitOutcome>();
    const toBill: typeof held = [];
    for (const cycle of held) {
      const { sub, cycleStart } = cycle;
      const id = sub.package_id;
      const action = dueAction(sub, asOf, this.wire.timezone);
      if (sub.next_invoice_datetime?.getTime() !== cycleStart.getTime() || action.kind === 'none') {
        outcomes.set(id, { kind: 'moved' });
      } else if (action.kind === 'resume') {
        await tx.manager.update(Subscription, id, { next_invoice_datetime: action.at });
        const note = `Billing resumes on ${this.wire.datetime(action.at)} after the suspension`;
        await this.revisions.record(tx, SYSTEM_CONTEXT, 'package', id, note);
        outcomes.set(id, { kind: 'resumed' });
      } else {
        toBill.push(cycle);
      }
    }
    const invoiceIds = await this.cycleBilling.billNextCycles(
      tx,
      SYSTEM_CONTEXT,
      toBill.map(({ sub, cycleStart, usage }) => ({ sub, usage, date: accountDate(cycleStart, this.wire.timezone) })),
      { catalog, allowEmpty: true },
    );
    const issued: IssuedCycle[] = [];
    toBill.forEach(({ sub, cycleStart }, i) => {
      const invoiceId = invoiceIds[i];
      if (invoiceId === null) outcomes.set(sub.package_id, { kind: 'empty' });
      else issued.push({ sub, cycleStart, invoiceId });
    });
    for (const invoice of await this.describe(tx, issued, withLines)) {
      outcomes.set(invoice.packageId, { kind: 'invoiced', invoice });
    }
    return outcomes;
  }

  /**
   * What a summary shows of the cycles' invoices, in their order: one statement however many,
   * and one more for their lines when `withLines`.
   */
  private async describe(tx: Tx, cycles: IssuedCycle[], withLines: boolean): Promise<RunInvoice[]> {
    if (cycles.length === 0) return [];
    const ids = cycles.map((c) => c.invoiceId);
    const invoices = await this.invoiceSummaries.many(tx.manager, {
      where: 'i.invoice_id IN (:...ids)',
      params: { ids },
    });
    const lines = withLines
      ? await this.lineSummaries.many(tx.manager, {
          where: 'l.invoice_id IN (:...ids)',
          params: { ids },
          tail: 'ORDER BY l.invoice_id ASC, l.sort_order ASC',
        })
      : [];
    const invoiceById = new Map(invoices.map((i) => [i.invoice_id, i]));
    const linesByInvoice = groupBy(lines, (l) => l.invoice_id);
    return cycles.map(({ sub, cycleStart, invoiceId }) => {
      const invoice = invoiceById.get(invoiceId)!;
      return {
        packageId: sub.package_id,
        customerId: sub.customer_id,
        cycleStart,
        invoiceId,
        date: invoice.date,
        currency: this.reference.currency(invoice.currency_id)?.currency_iso4217 ?? String(invoice.currency_id),
        total: invoice.total,
        lines: withLines
          ? (linesByInvoice.get(invoiceId) ?? []).map((l) => ({
              descrip: l.descrip,
              origin: l.line_origin,
              amount: l.line_subtotal,
            }))
          : undefined,
      };
    });
  }
}

/**
 * The subscription under its row lock: on MySQL/MariaDB null when another worker holds it
 * (SKIP LOCKED: that worker is billing it); SQLite has one writer, so a plain read.
 */
async function lockForBilling(tx: Tx, id: number): Promise<Subscription | null> {
  return (await lockBatchForBilling(tx, [id])).get(id) ?? null;
}

/**
 * A batch's subscriptions under their row locks, by id, in one statement each way: on
 * MySQL/MariaDB without those another worker holds (SKIP LOCKED); SQLite has one writer.
 */
async function lockBatchForBilling(tx: Tx, ids: number[]): Promise<Map<number, Subscription>> {
  const m = tx.manager;
  const free = await lockFreeIds(m, 'package', 'package_id', ids);
  const subs = free.length
    ? await plainReader(m, Subscription).many(m, { where: 'e.package_id IN (:...ids)', params: { ids: free } })
    : [];
  return new Map(subs.map((sub) => [sub.package_id, sub]));
}

/** `items` in runs of `size`, in order. */
function chunk<T>(items: T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let at = 0; at < items.length; at += size) parts.push(items.slice(at, at + size));
  return parts;
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
