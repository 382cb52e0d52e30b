import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { amountSum } from 'src/core/money/amount-sum';
import { Money, ZERO } from 'src/core/money/decimal';
import { queryArrays } from 'src/database/raw-query';
import { asDate } from './db-values';
import { dayAfterMonth, ReportPeriod } from './report-period';

/** One month of dunning in one currency. */
export interface DunningMonth {
  month: string;
  failed_invoices: number;
  failed_amount: Decimal;
  recovered_invoices: number;
  recovered_amount: Decimal;
  recovery_rate: Decimal | null;
  cancelled_nonpayment: number;
}

/** One month of one metered item in one currency. */
export interface UsageRow {
  month: string;
  item_id: number;
  item_name: string;
  units: Decimal;
  amount: Decimal;
}

type MonthOf = (at: Date) => string;

/**
 * Per currency and month (of the first failed automatic charge, account zone): invoices
 * whose automatic charge failed, how many and how much were collected later by the
 * dunning schedule (their collection ended `paid`), the recovery rate (recovered ÷
 * failed invoices), and subscriptions cancelled for non-payment in the month. Two queries.
 */
export async function dunningMonths(
  m: EntityManager,
  period: ReportPeriod,
  window: { from: Date; until: Date },
  monthOf: MonthOf,
): Promise<Map<number, DunningMonth[]>> {
  const index = new Map(period.months.map((mo, i) => [mo, i]));
  const result = new Map<number, DunningMonth[]>();
  const rowOf = (currency: number, month: string): DunningMonth | undefined => {
    const i = index.get(month);
    if (i === undefined) return undefined;
    let list = result.get(currency);
    if (!list)
      result.set(
        currency,
        (list = period.months.map((mo) => ({
          month: mo,
          failed_invoices: 0,
          failed_amount: ZERO,
          recovered_invoices: 0,
          recovered_amount: ZERO,
          recovery_rate: null,
          cancelled_nonpayment: 0,
        }))),
      );
    return list[i];
  };
  if (period.currency) rowOf(period.currency.currency_id, period.from);
  const currency = period.currency ? ' AND i.currency_id = :currency' : '';
  const params = { from: window.from, until: window.until, currency: period.currency?.currency_id };
  const failed = await queryArrays(
    m,
    `SELECT i.currency_id, ic.first_failed_datetime, ic.status, i.total FROM invoice_collection ic
     JOIN invoice i ON i.invoice_id = ic.invoice_id
     WHERE ic.first_failed_datetime >= :from AND ic.first_failed_datetime < :until${currency}`,
    params,
  );
  for (const [cur, at, status, total] of failed) {
    const row = rowOf(Number(cur), monthOf(asDate(at as Date | string)));
    if (!row) continue;
    const amount = new Money(total as string).toDecimalPlaces(2);
    row.failed_invoices++;
    row.failed_amount = row.failed_amount.plus(amount);
    if (status === 'paid') {
      row.recovered_invoices++;
      row.recovered_amount = row.recovered_amount.plus(amount);
    }
  }
  const cancelled = await queryArrays(
    m,
    `SELECT i.currency_id, i.cancel_datetime FROM package i
     WHERE i.package_status_str = 'canceled-nonpayment' AND i.cancel_datetime >= :from AND i.cancel_datetime < :until${currency}`,
    params,
  );
  for (const [cur, at] of cancelled) {
    const row = rowOf(Number(cur), monthOf(asDate(at as Date | string)));
    if (row) row.cancelled_nonpayment++;
  }
  for (const list of result.values())
    for (const row of list)
      row.recovery_rate = row.failed_invoices
        ? new Money(row.recovered_invoices).div(row.failed_invoices).toDecimalPlaces(4)
        : null;
  return result;
}

/**
 * Per currency, month (invoice date) and metered item: the units and amounts billed on
 * usage lines of invoices not void or deleted. One query.
 */
export async function usageRows(m: EntityManager, period: ReportPeriod): Promise<Map<number, UsageRow[]>> {
  const sum = amountSum(m);
  const rows = await queryArrays(
    m,
    `SELECT i.currency_id, SUBSTR(i.date, 1, 7) AS month, l.item_id, MAX(it.name) AS name, SUM(l.line_usage), ${sum.sql('l.line_total')}
     FROM invoice_line l JOIN invoice i ON i.invoice_id = l.invoice_id JOIN item it ON it.item_id = l.item_id
     WHERE l.is_usage = :usage AND i.date >= :from AND i.date < :until AND i.void_datetime IS NULL AND i.deleted_datetime IS NULL${
       period.currency ? ' AND i.currency_id = :currency' : ''
     }
     GROUP BY i.currency_id, SUBSTR(i.date, 1, 7), l.item_id
     ORDER BY i.currency_id, SUBSTR(i.date, 1, 7), l.item_id`,
    { usage: true, from: `${period.from}-01`, until: dayAfterMonth(period.to), currency: period.currency?.currency_id },
  );
  const result = new Map<number, UsageRow[]>();
  if (period.currency) result.set(period.currency.currency_id, []);
  for (const [cur, month, item, name, units, amount] of rows) {
    let list = result.get(Number(cur));
    if (!list) result.set(Number(cur), (list = []));
    list.push({
      month: String(month),
      item_id: Number(item),
      item_name: String(name),
      // A sum of 6-decimal quantities, back to its scale (SQLite sums them as doubles).
      units: new Money(units as string).toDecimalPlaces(6),
      amount: sum.read(amount as string),
    });
  }
  return result;
}
