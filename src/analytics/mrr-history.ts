import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { mrrAsOf, mrrMoments } from 'src/billing/cycles/mrr-as-of';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Money, ZERO } from 'src/core/money/decimal';
import { accountDate } from 'src/core/time/account-date';
import { queryRows } from 'src/database/raw-query';
import { asDate } from './db-values';
import { loadMrrFacts, MrrFacts } from './mrr-facts';
import { NewChange, writeChanges } from './mrr-rollup';

/**
 * Keeps the MRR history: one `mrr_change` row each time a subscription's MRR changes,
 * written in the transaction of the change (a subscription event) or, for what time alone
 * changes (a trial ending, a suspension starting or ending, a cancellation taking effect),
 * by the sweep at the moment it happened.
 */
@Injectable()
export class MrrHistory {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Records, as of `at`, the MRR of these subscriptions where it differs from the last row. */
  async recordAt(m: EntityManager, packageIds: readonly number[], at: Date): Promise<void> {
    const facts = await loadMrrFacts(m, packageIds);
    const last = await this.lastRecorded(m, packageIds);
    const rows: NewChange[] = [];
    for (const f of facts) {
      const before = last.get(f.packageId)?.mrr ?? ZERO;
      const now = mrrAsOf(f, at);
      if (!now.eq(before)) rows.push(this.row(f, at, now, before));
    }
    await this.write(m, rows);
  }

  /**
   * Brings these subscriptions up to `asOf` through the moments time alone changed them
   * since their last row: a row at each moment where the MRR changed, and one (maybe with
   * no change) at the last moment reached, so the same moment is never looked at again.
   */
  async sweep(m: EntityManager, packageIds: readonly number[], asOf: Date): Promise<void> {
    const facts = await loadMrrFacts(m, packageIds);
    const last = await this.lastRecorded(m, packageIds);
    const rows: NewChange[] = [];
    for (const f of facts) {
      const recorded = last.get(f.packageId);
      let mrr = recorded?.mrr ?? ZERO;
      const moments = mrrMoments(f).filter(
        (t) => t.getTime() <= asOf.getTime() && (!recorded || t.getTime() > recorded.at.getTime()),
      );
      // Nothing of the rule's moments is new (a due date it does not count): note the sweep.
      if (moments.length === 0) rows.push(this.row(f, asOf, mrr, mrr));
      for (const [i, t] of moments.entries()) {
        const next = mrrAsOf(f, t);
        if (!next.eq(mrr) || i === moments.length - 1) rows.push(this.row(f, t, next, mrr));
        mrr = next;
      }
    }
    await this.write(m, rows);
  }

  /** The account-zone month (`YYYY-MM`) of an instant. */
  monthOf(at: Date): string {
    return accountDate(at, this.config.timezone).slice(0, 7);
  }

  private row(f: MrrFacts, at: Date, mrr: Decimal, before: Decimal): NewChange {
    return {
      package_id: f.packageId,
      customer_id: f.customerId,
      currency_id: f.currencyId,
      change_datetime: at,
      month: this.monthOf(at),
      mrr,
      delta: mrr.minus(before),
    };
  }

  private async write(m: EntityManager, rows: NewChange[]): Promise<void> {
    await writeChanges(m, rows);
  }

  /** The last row of each subscription (one query). */
  private async lastRecorded(
    m: EntityManager,
    packageIds: readonly number[],
  ): Promise<Map<number, { mrr: Decimal; at: Date }>> {
    if (packageIds.length === 0) return new Map();
    const rows = await queryRows<{ package_id: number; mrr: string | number; change_datetime: Date | string }>(
      m,
      `SELECT c.package_id, c.mrr, c.change_datetime FROM mrr_change c
       JOIN (SELECT package_id, MAX(mrr_change_id) AS id FROM mrr_change WHERE package_id IN (:...ids) GROUP BY package_id) l
         ON l.id = c.mrr_change_id`,
      { ids: [...new Set(packageIds)] },
    );
    return new Map(
      rows.map((r) => [
        Number(r.package_id),
        { mrr: new Money(r.mrr).toDecimalPlaces(2), at: asDate(r.change_datetime) },
      ]),
    );
  }
}
