import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from 'src/core/clock/clock';
import { PendingEvent, RecordingListener } from 'src/core/events/event-recorder';
import { DueWork } from 'src/core/schedule/due-work';
import { queryRows } from 'src/database/raw-query';
import { Tx, UnitOfWork } from 'src/database/unit-of-work';
import { MrrHistory } from './mrr-history';
import { asDate } from './db-values';

const BATCH = 500;
const NEVER = new Date('1900-01-01T00:00:00Z');

/**
 * `col` came due after `:since` (the last sweep of this process), by `:asOf`, and after the
 * subscription's last row (index package_id, change_datetime).
 */
const cameDue = (col: string): string =>
  `(${col} > :since AND ${col} <= :asOf AND NOT EXISTS (SELECT 1 FROM mrr_change c WHERE c.package_id = p.package_id AND c.change_datetime >= ${col}))`;
/** The moments time alone changes MRR at, as `(SELECT MIN(..))` terms after `:after`. */
const MOMENTS: Array<[table: string, column: string, extra?: string]> = [
  ['package', 'start_datetime'],
  ['package', 'suspendfrom_datetime'],
  ['package', 'suspendto_datetime'],
  ['package', 'cancel_datetime', "package_status_str LIKE 'canceled-%'"],
  ['package_line', 'subscribe_datetime'],
  ['package_line', 'cancel_datetime'],
  ['package_line', 'expire_datetime'],
  ['package_line', 'trial_end_datetime'],
];

/**
 * When MRR history is written (DESIGN §6 "Analytics"): every batch of subscription events
 * records, in the writer's transaction, the MRR of the subscriptions it names; and a due
 * work brings subscriptions through the moments time alone changes them, at those moments,
 * so moving the test clock builds the months as they pass.
 */
@Injectable()
@DueWork()
export class MrrRecording implements DueWork {
  readonly name = 'analytics-mrr';
  readonly trigger = { kind: 'interval', everyMs: 60_000 } as const;
  /** The last moment this process swept to. */
  private sweptUpTo = NEVER;

  constructor(
    private readonly dataSource: DataSource,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly history: MrrHistory,
  ) {}

  @RecordingListener()
  async onEvents(tx: Tx, events: readonly PendingEvent[]): Promise<void> {
    const ids = [...new Set(events.filter((e) => e.contextStr === 'package').map((e) => Number(e.contextId)))];
    if (ids.length) await this.history.recordAt(tx.manager, ids, this.clock.now());
  }

  async runDue(asOf: Date): Promise<void> {
    // A clock set back (a test's, after a tick on real time) looks through everything again.
    if (asOf < this.sweptUpTo) this.sweptUpTo = NEVER;
    for (;;) {
      const due = await queryRows<{ package_id: number }>(
        this.dataSource.manager,
        `SELECT p.package_id FROM package p
         WHERE ${['p.start_datetime', 'p.suspendfrom_datetime', 'p.suspendto_datetime'].map(cameDue).join(' OR ')}
           OR (p.package_status_str LIKE 'canceled-%' AND ${cameDue('p.cancel_datetime')})
           OR EXISTS (SELECT 1 FROM package_line l WHERE l.package_id = p.package_id AND (${[
             'l.subscribe_datetime',
             'l.cancel_datetime',
             'l.expire_datetime',
             'l.trial_end_datetime',
           ]
             .map(cameDue)
             .join(' OR ')}))
         ORDER BY p.package_id LIMIT ${BATCH}`,
        { asOf, since: this.sweptUpTo },
      );
      if (due.length === 0) break;
      await this.uow.run((tx) =>
        this.history.sweep(
          tx.manager,
          due.map((r) => Number(r.package_id)),
          asOf,
        ),
      );
      if (due.length < BATCH) break;
    }
    // Moments up to here are done; a restart looks through all of them again, once.
    this.sweptUpTo = asOf;
  }

  async nextDueAfter(after: Date): Promise<Date | null> {
    const terms = MOMENTS.map(
      ([table, column, extra]) =>
        `SELECT MIN(${column}) AS t FROM ${table} WHERE ${column} > :after${extra ? ` AND ${extra}` : ''}`,
    );
    const [row] = await queryRows<{ t: Date | string | null }>(
      this.dataSource.manager,
      `SELECT MIN(t) AS t FROM (${terms.join(' UNION ALL ')}) moments`,
      { after },
    );
    if (!row?.t) return null;
    return asDate(row.t);
  }
}
