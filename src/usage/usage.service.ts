import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { ApiError } from 'src/core/envelope/api-error';
import { MetricsRegistry } from 'src/core/metrics/metrics-registry';
import { moneyToJson } from 'src/core/money/decimal';
import { parsePathRef } from 'src/core/refs/path-ref';
import { findByPathRef } from 'src/core/refs/ref-resolver';
import { WireFormat } from 'src/core/wire/wire-format';
import { insertRowsReturningIds } from 'src/database/insert-row';
import { queryRows } from 'src/database/raw-query';
import { readManager, UnitOfWork } from 'src/database/unit-of-work';
import { UsageRecord } from './entities/usage-record.entity';
import { keyTaken, SingleUsageBatch } from './single-usage-batch';
import { parseUsageRecord, UsageRecordInput } from './usage-record-input';
import { USAGE_REF } from './usage-ref';
import { UsageTarget, UsageTargetResolver } from './usage-target-resolver';
import { WireUsage } from './wire-usage';

/** At most this many records in one `POST /usage?action=bulk` (DESIGN §6 "Usage"). */
export const MAX_BULK_USAGE = 1000;

/** What one record of a bulk request came to: its new id, or why it was refused. */
export type UsageOutcome = { id: number } | { error: string };

/** A single record, checked, waiting for its line: `now` is its request's time. */
interface SingleRecord {
  input: UsageRecordInput;
  now: Date;
}

/** Usage ingestion (`POST /usage`, one record or a bulk of up to 1000) and reads. */
@Injectable()
export class UsageService {
  /** Usage records by outcome (`/metrics`): recorded, or refused (a bad record or a repeated key). */
  private readonly records: Counter<'outcome'>;
  private readonly singles: SingleUsageBatch<SingleRecord>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly wire: WireFormat,
    private readonly resolver: UsageTargetResolver,
    metrics: MetricsRegistry,
  ) {
    this.singles = new SingleUsageBatch(uow, (records) => this.singleRows(records));
    this.records = metrics.counter({
      name: 'billing_usage_records_total',
      help: 'Usage records received through POST /usage, by outcome.',
      labelNames: ['outcome'],
    });
  }

  async record(body: unknown): Promise<number> {
    try {
      const id = await this.recordOne(body);
      this.records.inc({ outcome: 'recorded' });
      return id;
    } catch (error) {
      if (error instanceof ApiError) this.records.inc({ outcome: 'refused' });
      throw error;
    }
  }

  private recordOne(body: unknown): Promise<number> {
    const now = this.clock.now();
    const input = parseUsageRecord(body, now, this.wire.timezone);
    return this.singles.insert({ input, now });
  }

  /** The rows of single records that arrived together, their lines resolved in one read. */
  private async singleRows(records: readonly SingleRecord[]): Promise<Array<Partial<UsageRecord> | ApiError>> {
    const targets = await this.resolver.resolve(
      readManager(this.dataSource),
      records.map((r) => r.input.selector),
      this.clock.now(),
    );
    return records.map((r, i) => {
      const target = targets[i];
      return typeof target === 'string' ? ApiError.badRequest(target) : row(r.input, target, r.now);
    });
  }

  /**
   * Each record is checked and resolved on its own; the good ones are written together
   * in one INSERT, and each record gets its own answer, in order.
   */
  async recordMany(body: unknown): Promise<UsageOutcome[]> {
    const list = body === undefined || body === null || body === '' ? [] : body;
    if (!Array.isArray(list)) throw ApiError.badRequest('The request body must be a JSON array of usage records.');
    if (list.length === 0) throw ApiError.badRequest('Send at least one usage record.');
    if (list.length > MAX_BULK_USAGE) {
      throw ApiError.badRequest(`At most ${MAX_BULK_USAGE} usage records in one request (${list.length} sent).`);
    }
    const now = this.clock.now();
    const outcomes: Array<UsageOutcome | UsageRecordInput> = list.map((raw) => {
      try {
        return parseUsageRecord(raw, now, this.wire.timezone);
      } catch (error) {
        if (error instanceof ApiError) return { error: error.message };
        throw error;
      }
    });
    const parsed = outcomes.flatMap((o, i) => ('selector' in o ? [{ i, input: o }] : []));
    const targets = await this.resolver.resolve(
      this.dataSource.manager,
      parsed.map((p) => p.input.selector),
      now,
    );
    const ready: Array<{ i: number; input: UsageRecordInput; target: UsageTarget }> = [];
    parsed.forEach((p, k) => {
      const target = targets[k];
      if (typeof target === 'string') outcomes[p.i] = { error: target };
      else ready.push({ i: p.i, input: p.input, target });
    });
    const ids = await this.uow.run(async (tx) => {
      const keys = ready.flatMap((r) => (r.input.externalKey === null ? [] : [r.input.externalKey]));
      const taken = await this.takenKeys(tx.manager, keys);
      const seen = new Set<string>();
      const written: Array<{ i: number; input: UsageRecordInput; target: UsageTarget }> = [];
      const refused = new Map<number, string>();
      for (const r of ready) {
        const key = r.input.externalKey?.toLowerCase();
        if (key !== undefined && (taken.has(key) || seen.has(key))) {
          refused.set(r.i, keyTaken(r.input.externalKey as string).message);
          continue;
        }
        if (key !== undefined) seen.add(key);
        written.push(r);
      }
      if (!written.length) return { refused, written: [] as number[] };
      const ids = await insertRowsReturningIds(
        tx.manager,
        UsageRecord,
        written.map((r) => row(r.input, r.target, now)),
      );
      written.forEach((r, k) => (outcomes[r.i] = { id: ids[k] }));
      return { refused, written: ids };
    });
    for (const [i, error] of ids.refused) outcomes[i] = { error };
    const recorded = ids.written.length;
    this.records.inc({ outcome: 'recorded' }, recorded);
    this.records.inc({ outcome: 'refused' }, outcomes.length - recorded);
    return outcomes as UsageOutcome[];
  }

  async findOne(ref: string): Promise<WireUsage> {
    // Usage records have no token.
    if (parsePathRef(ref)?.kind === 'token') throw ApiError.notFound('usage');
    const found = await findByPathRef(this.dataSource.manager, USAGE_REF, ref);
    return {
      usage_id: found.usage_id,
      line_item_id: found.line_item_id,
      package_id: found.package_id,
      customer_id: found.customer_id,
      usage_value: moneyToJson(found.usage_value),
      type: found.type,
      option: found.options ? found.options.split(',') : [],
      from: this.wire.datetime(found.from_datetime),
      to: this.wire.datetime(found.to_datetime),
      external_key: found.external_key,
      write_datetime: this.wire.datetime(found.write_datetime),
    };
  }

  /** The keys among `keys` already used (compared as the database compares them). */
  private async takenKeys(m: EntityManager, keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const table = m.connection.driver.escape(m.connection.getMetadata(UsageRecord).tableName);
    const rows = await queryRows<{ external_key: string }>(
      m,
      `SELECT external_key FROM ${table} WHERE external_key IN (:...keys)`,
      { keys },
    );
    return new Set(rows.map((r) => r.external_key.toLowerCase()));
  }
}

/**
 * The row of a record; `now`, the request's time, is its write time. The target's columns
 * are named, not spread (see ARCHITECTURE.md, "Objects on hot paths"): it is the resolver's whole row.
 */
function row(input: UsageRecordInput, target: UsageTarget, now: Date): Partial<UsageRecord> {
  return {
    line_item_id: target.line_item_id,
    package_id: target.package_id,
    customer_id: target.customer_id,
    usage_value: input.value,
    type: input.type,
    options: input.options.join(','),
    from_datetime: input.from,
    to_datetime: input.to,
    external_key: input.externalKey,
    write_datetime: now,
  };
}
