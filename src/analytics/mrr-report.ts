import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { Money, ZERO } from 'src/core/money/decimal';
import { queryArrays } from 'src/database/raw-query';
import { MOVEMENT_COLUMNS, MovementColumn } from './mrr-rollup';
import { ReportPeriod } from './report-period';

/** One month of MRR movements in one currency (DESIGN §6 "Analytics"). */
export interface MrrMonth {
  month: string;
  start: Decimal;
  new: Decimal;
  expansion: Decimal;
  contraction: Decimal;
  churned: Decimal;
  reactivation: Decimal;
  end: Decimal;
  startCustomers: number;
  newCustomers: number;
  reactivatedCustomers: number;
  churnedCustomers: number;
  customers: number;
}

/**
 * MRR movements per currency and month, from the `mrr_month` rollup (mrr-rollup.ts: what
 * each customer's MRR did in each month it changed, summed per month as the changes are
 * written). A month's start is the sum of every earlier month's movements, so start + new
 * + expansion + reactivation − contraction − churned = end holds for every month by
 * construction. One query, a row per currency and month up to the period's end: the work
 * done does not grow with the customers.
 */
export async function mrrMovements(m: EntityManager, period: ReportPeriod): Promise<Map<number, MrrMonth[]>> {
  const months = await queryArrays(
    m,
    `SELECT currency_id, month, ${MOVEMENT_COLUMNS.map((c) => `SUM(${c})`).join(', ')} FROM mrr_month
     WHERE month <= :to${period.currency ? ' AND currency_id = :currency' : ''} GROUP BY currency_id, month`,
    { to: period.to, currency: period.currency?.currency_id },
  );
  // Whole cents: an exact DECIMAL string from MariaDB, an integer well inside 2^53 from SQLite.
  const money = (value: unknown) => new Money(value === null ? 0 : (value as string | number)).div(100);
  const count = (value: unknown) => Number(value ?? 0);

  const index = new Map(period.months.map((month, i) => [month, i]));
  const byCurrency = new Map<number, MrrMonth[]>();
  const monthsOf = (currencyId: number): MrrMonth[] => {
    let list = byCurrency.get(currencyId);
    if (!list) {
      list = period.months.map((month) => ({
        month,
        start: ZERO,
        new: ZERO,
        expansion: ZERO,
        contraction: ZERO,
        churned: ZERO,
        reactivation: ZERO,
        end: ZERO,
        startCustomers: 0,
        newCustomers: 0,
        reactivatedCustomers: 0,
        churnedCustomers: 0,
        customers: 0,
      }));
      byCurrency.set(currencyId, list);
    }
    return list;
  };
  if (period.currency) monthsOf(period.currency.currency_id);
  for (const [cur, month, ...sums] of months) {
    const f = Object.fromEntries(MOVEMENT_COLUMNS.map((c, k) => [c, sums[k]])) as Record<MovementColumn, unknown>;
    const list = monthsOf(Number(cur));
    if (String(month) < period.from) {
      // Before the period: only where it starts.
      const first = list[0];
      first.start = first.start
        .plus(money(f.new_cents))
        .plus(money(f.expansion_cents))
        .plus(money(f.reactivation_cents))
        .minus(money(f.contraction_cents))
        .minus(money(f.churned_cents));
      first.startCustomers += count(f.new_count) + count(f.reactivation_count) - count(f.churned_count);
      continue;
    }
    const i = index.get(String(month));
    if (i === undefined) continue;
    const row = list[i];
    row.new = money(f.new_cents);
    row.newCustomers = count(f.new_count);
    row.reactivation = money(f.reactivation_cents);
    row.reactivatedCustomers = count(f.reactivation_count);
    row.churned = money(f.churned_cents);
    row.churnedCustomers = count(f.churned_count);
    row.expansion = money(f.expansion_cents);
    row.contraction = money(f.contraction_cents);
  }
  for (const list of byCurrency.values()) {
    let start = list[0].start;
    let customers = list[0].startCustomers;
    for (const row of list) {
      row.start = start;
      row.startCustomers = customers;
      row.end = start
        .plus(row.new)
        .plus(row.expansion)
        .plus(row.reactivation)
        .minus(row.contraction)
        .minus(row.churned);
      row.customers = customers + row.newCustomers + row.reactivatedCustomers - row.churnedCustomers;
      start = row.end;
      customers = row.customers;
    }
  }
  return byCurrency;
}
