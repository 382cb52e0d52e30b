import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { amountSum } from 'src/core/money/amount-sum';
import { Money, ZERO } from 'src/core/money/decimal';
import { queryArrays } from 'src/database/raw-query';
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

/** The movements of one month, as SUMs and COUNTs over `cls` (start `s`, end `e`, in cents). */
const MOVEMENTS = {
  new: 's <= 0 AND e > 0 AND paid_before = 0',
  reactivation: 's <= 0 AND e > 0 AND paid_before = 1',
  churned: 's > 0 AND e <= 0',
  expansion: 'e > s AND (s > 0 OR e <= 0)',
  contraction: 'e < s AND (s <= 0 OR e > 0)',
} as const;

/**
 * MRR movements per currency and month, from the MRR history: each customer's MRR at each
 * month's end (`e`) is the sum of its subscriptions' changes up to it, and at its start
 * (`s`) the end of the month before; the change of a customer's MRR over a month is one
 * movement: `new` (from zero, first time), `reactivation` (from zero, having paid before),
 * `expansion`, `contraction`, `churned` (to zero). So start + new + expansion +
 * reactivation − contraction − churned = end holds for every month by construction. The
 * database classifies (window sums in whole cents, exact on both databases) and answers a
 * row per currency and month, so the work done here does not grow with the customers.
 * Two queries: where every customer stood when the period starts, and the months.
 */
export async function mrrMovements(m: EntityManager, period: ReportPeriod): Promise<Map<number, MrrMonth[]>> {
  const { cents } = amountSum(m);
  const currency = period.currency ? ' AND currency_id = :currency' : '';
  const params = { from: period.from, to: period.to, currency: period.currency?.currency_id };
  const perCustomer = `SELECT currency_id, customer_id, month, SUM(${cents('delta')}) AS d FROM mrr_change
     WHERE month <= :to${currency} GROUP BY currency_id, customer_id, month`;
  const ends = `SELECT currency_id, customer_id, month, d,
       SUM(d) OVER (PARTITION BY currency_id, customer_id ORDER BY month ROWS UNBOUNDED PRECEDING) AS e
     FROM (${perCustomer}) cm`;
  const classified = `SELECT currency_id, month, e - d AS s, e,
       COALESCE(MAX(CASE WHEN e > 0 THEN 1 ELSE 0 END) OVER (PARTITION BY currency_id, customer_id ORDER BY month
         ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS paid_before
     FROM (${ends}) r`;
  const kinds = Object.entries(MOVEMENTS);
  const months = await queryArrays(
    m,
    `SELECT currency_id, month, ${kinds
      .map(([, when]) => `SUM(CASE WHEN ${when} THEN ABS(e - s) ELSE 0 END), SUM(CASE WHEN ${when} THEN 1 ELSE 0 END)`)
      .join(', ')}
     FROM (${classified}) c WHERE month >= :from GROUP BY currency_id, month`,
    params,
  );
  const starts = await queryArrays(
    m,
    `SELECT currency_id, SUM(e), SUM(CASE WHEN e > 0 THEN 1 ELSE 0 END) FROM
       (SELECT currency_id, customer_id, SUM(${cents('delta')}) AS e FROM mrr_change
        WHERE month < :from${currency} GROUP BY currency_id, customer_id) c
     GROUP BY currency_id`,
    params,
  );
  // Whole cents: an exact DECIMAL string from MariaDB, an integer well inside 2^53 from SQLite.
  const money = (value: unknown) => new Money(value === null ? 0 : (value as string | number)).div(100);

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
  for (const [cur, start, customers] of starts) {
    const first = monthsOf(Number(cur))[0];
    first.start = money(start);
    first.startCustomers = Number(customers);
  }
  for (const [cur, month, ...sums] of months) {
    const i = index.get(String(month));
    if (i === undefined) continue;
    const row = monthsOf(Number(cur))[i];
    const figure = (kind: keyof typeof MOVEMENTS) => {
      const k = kinds.findIndex(([name]) => name === kind);
      return { amount: money(sums[2 * k]), count: Number(sums[2 * k + 1]) };
    };
    row.new = figure('new').amount;
    row.newCustomers = figure('new').count;
    row.reactivation = figure('reactivation').amount;
    row.reactivatedCustomers = figure('reactivation').count;
    row.churned = figure('churned').amount;
    row.churnedCustomers = figure('churned').count;
    row.expansion = figure('expansion').amount;
    row.contraction = figure('contraction').amount;
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
