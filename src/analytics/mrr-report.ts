import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { amountSum } from 'src/core/money/amount-sum';
import { ZERO } from 'src/core/money/decimal';
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

/**
 * MRR movements per currency and month, from the MRR history: each customer's MRR at
 * each month's end is the sum of its subscriptions' changes up to it; the change of a
 * customer's MRR over a month is one movement: `new` (from zero, first time),
 * `reactivation` (from zero, having paid before), `expansion`, `contraction`, `churned`
 * (to zero). So start + new + expansion + reactivation − contraction − churned = end
 * holds for every month by construction. One query (sums per customer and month).
 */
export async function mrrMovements(m: EntityManager, period: ReportPeriod): Promise<Map<number, MrrMonth[]>> {
  const sum = amountSum(m);
  const rows = await queryArrays(
    m,
    `SELECT currency_id, customer_id, month, ${sum.sql('delta')} FROM mrr_change
     WHERE month <= :to${period.currency ? ' AND currency_id = :currency' : ''}
     GROUP BY currency_id, customer_id, month ORDER BY currency_id, customer_id, month`,
    { to: period.to, currency: period.currency?.currency_id },
  );
  const index = new Map(period.months.map((month, i) => [month, i]));
  const byCurrency = new Map<number, MrrMonth[]>();
  const monthsOf = (currencyId: number): MrrMonth[] => {
    let months = byCurrency.get(currencyId);
    if (!months) {
      months = period.months.map((month) => ({
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
      byCurrency.set(currencyId, months);
    }
    return months;
  };
  if (period.currency) monthsOf(period.currency.currency_id);

  let key = '';
  let mrr: Decimal = ZERO;
  let paidBefore = false;
  let counted = true;
  let current: MrrMonth[] = [];
  /** Where the customer stood when the period started, counted once (also with no row in it). */
  const countStart = () => {
    if (counted) return;
    counted = true;
    current[0].start = current[0].start.plus(mrr);
    if (mrr.gt(0)) current[0].startCustomers++;
  };
  for (const [currency, customer, month, delta] of rows as Array<[number, number, string, string | number | null]>) {
    const months = monthsOf(Number(currency));
    const rowKey = `${currency}/${customer}`;
    if (rowKey !== key) {
      countStart();
      key = rowKey;
      current = months;
      mrr = ZERO;
      paidBefore = false;
      counted = false;
    }
    const change = sum.read(delta);
    const at = index.get(month);
    if (at === undefined) {
      // Before the period: only where the customer stands when it starts.
      mrr = mrr.plus(change);
      paidBefore ||= mrr.gt(0);
      continue;
    }
    countStart();
    const start = mrr;
    const end = start.plus(change);
    const row = months[at];
    if (start.lte(0) && end.gt(0)) {
      if (paidBefore) {
        row.reactivation = row.reactivation.plus(end.minus(start));
        row.reactivatedCustomers++;
      } else {
        row.new = row.new.plus(end.minus(start));
        row.newCustomers++;
      }
    } else if (start.gt(0) && end.lte(0)) {
      row.churned = row.churned.plus(start.minus(end));
      row.churnedCustomers++;
    } else if (end.gt(start)) row.expansion = row.expansion.plus(end.minus(start));
    else if (end.lt(start)) row.contraction = row.contraction.plus(start.minus(end));
    mrr = end;
    paidBefore ||= end.gt(0);
  }
  countStart();
  for (const months of byCurrency.values()) {
    let start = months[0].start;
    let customers = months[0].startCustomers;
    for (const row of months) {
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
