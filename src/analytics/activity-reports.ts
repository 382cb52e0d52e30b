import Decimal from 'decimal.js';
import { EntityManager } from 'typeorm';
import { amountSum } from 'src/core/money/amount-sum';
import { Money, ZERO } from 'src/core/money/decimal';
import { throughIndex } from 'src/database/dialect';
import { queryArrays } from 'src/database/raw-query';
import { INVOICE_AMOUNT_INDEX } from 'src/invoices/entities/invoice.entity';
import { ReportPeriod } from './report-period';

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

/**
 * Per currency and month (of the first failed automatic charge, account zone): invoices
 * whose automatic charge failed, how many and how much were collected later by the
 * dunning schedule (their collection ended `paid`), the recovery rate (recovered ÷
 * failed invoices), and subscriptions cancelled for non-payment in the month. The
 * database counts and sums per month (the month found by comparing the instant with the
 * months' starts, `bounds`), reading each invoice's currency and total from a narrow
 * index. Two queries, a row per currency and month each.
 */
export async function dunningMonths(
  m: EntityManager,
  period: ReportPeriod,
  /** The instant each month of the period starts, then the instant the month after it starts. */
  bounds: Date[],
): Promise<Map<number, DunningMonth[]>> {
  const result = new Map<number, DunningMonth[]>();
  const rowOf = (currency: number, i: number): DunningMonth | undefined => {
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
  if (period.currency) rowOf(period.currency.currency_id, 0);
  const sum = amountSum(m);
  const currency = period.currency ? ' AND i.currency_id = :currency' : '';
  const params: Record<string, unknown> = {
    from: bounds[0],
    until: bounds[bounds.length - 1],
    currency: period.currency?.currency_id,
  };
  const inner = bounds.slice(1, -1);
  const monthIndex = (column: string) =>
    inner.length
      ? `CASE ${inner.map((_, k) => `WHEN ${column} < :b${k} THEN ${k}`).join(' ')} ELSE ${inner.length} END`
      : '0';
  inner.forEach((at, k) => (params[`b${k}`] = at));
  const failed = await queryArrays(
    m,
    `SELECT i.currency_id, ${monthIndex('ic.first_failed_datetime')} AS mi, COUNT(*),
       SUM(CASE WHEN ic.status = 'paid' THEN 1 ELSE 0 END), ${sum.sql('i.total')},
       ${sum.sql("CASE WHEN ic.status = 'paid' THEN i.total ELSE 0 END")}
     FROM invoice_collection ic JOIN invoice i ${throughIndex(m, 'invoice', INVOICE_AMOUNT_INDEX)} ON i.invoice_id = ic.invoice_id
     WHERE ic.first_failed_datetime >= :from AND ic.first_failed_datetime < :until${currency}
     GROUP BY i.currency_id, mi`,
    params,
  );
  for (const [cur, i, count, recovered, amount, recoveredAmount] of failed) {
    const row = rowOf(Number(cur), Number(i));
    if (!row) continue;
    row.failed_invoices = Number(count);
    row.failed_amount = sum.read(amount as string);
    row.recovered_invoices = Number(recovered);
    row.recovered_amount = sum.read(recoveredAmount as string);
  }
  const cancelled = await queryArrays(
    m,
    `SELECT i.currency_id, ${monthIndex('i.cancel_datetime')} AS mi, COUNT(*) FROM package i
     WHERE i.package_status_str = 'canceled-nonpayment' AND i.cancel_datetime >= :from AND i.cancel_datetime < :until${currency}
     GROUP BY i.currency_id, mi`,
    params,
  );
  for (const [cur, i, count] of cancelled) {
    const row = rowOf(Number(cur), Number(i));
    if (row) row.cancelled_nonpayment = Number(count);
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
 * usage lines of invoices not void or deleted, from the `usage_month` rollup (kept by row
 * triggers, migration UsageRollup). One query over a few rows per month.
 */
export async function usageRows(m: EntityManager, period: ReportPeriod): Promise<Map<number, UsageRow[]>> {
  const rows = await queryArrays(
    m,
    `SELECT u.currency_id, u.month, u.item_id, MAX(it.name), SUM(u.units_micro), SUM(u.amount_cents)
     FROM usage_month u JOIN item it ON it.item_id = u.item_id
     WHERE u.month >= :from AND u.month <= :to${period.currency ? ' AND u.currency_id = :currency' : ''}
     GROUP BY u.currency_id, u.month, u.item_id HAVING SUM(u.line_count) > 0
     ORDER BY u.currency_id, u.month, u.item_id`,
    { from: period.from, to: period.to, currency: period.currency?.currency_id },
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
      // Whole millionths and cents: exact DECIMAL text from MariaDB, integers from SQLite.
      units: new Money(units as string | number).div(1_000_000),
      amount: new Money(amount as string | number).div(100),
    });
  }
  return result;
}
