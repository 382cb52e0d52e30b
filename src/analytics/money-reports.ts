import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { EntityManager } from 'typeorm';
import { amountSum } from 'src/core/money/amount-sum';
import { Money, ZERO } from 'src/core/money/decimal';
import { throughIndex } from 'src/database/dialect';
import { queryArrays } from 'src/database/raw-query';
import { asDate } from './db-values';
import { ReportPeriod } from './report-period';

/** The invoice index the open balances are read through (migration ReceivablesIndex). */
const OPEN_BALANCES_INDEX = [
  'invoice_status_str',
  'due_date',
  'currency_id',
  'customer_id',
  'total',
  'date',
  'void_datetime',
  'deleted_datetime',
];

/** Transactions that count as money moved (transactions/transaction-status.ts COUNTING_STATUSES). */
const COUNTING = "('ok-successful', 'ok-pending')";

/** One month of revenue in one currency. */
export interface RevenueMonth {
  month: string;
  invoiced: Decimal;
  collected: Decimal;
  credits: Decimal;
  refunds: Decimal;
  written_off: Decimal;
}

function currencyFilter(period: ReportPeriod, column: string): string {
  return period.currency ? ` AND ${column} = :currency` : '';
}

/** Per currency, a row per month of the period, each figure zero until set. */
function monthTable<R extends { month: string }>(
  period: ReportPeriod,
  blank: (month: string) => R,
): { rows: Map<number, R[]>; at: (currencyId: number, month: string) => R | undefined } {
  const rows = new Map<number, R[]>();
  const index = new Map(period.months.map((m, i) => [m, i]));
  const of = (currencyId: number) => {
    let list = rows.get(currencyId);
    if (!list) rows.set(currencyId, (list = period.months.map(blank)));
    return list;
  };
  if (period.currency) of(period.currency.currency_id);
  return {
    rows,
    at: (currencyId, month) => {
      const i = index.get(month);
      return i === undefined ? undefined : of(currencyId)[i];
    },
  };
}

/**
 * Invoiced (invoice totals by invoice date, deleted ones left out), collected (payments net
 * of refunds, by transaction date), credits issued, refunds and written off, per currency
 * and month. The server writes an invoice off by voiding it (SPEC has no other way: there is
 * no write-off transaction), and only an open invoice with no money applied can be voided,
 * so an invoice voided in a month (account zone) writes off its whole total there. A voided
 * invoice stays invoiced in its own month, so no month changes when an invoice is voided
 * later. Two queries: the month sums come from the `revenue_month` rollup (kept by row
 * triggers, migration RevenueRollup), the write-offs from the voided invoices.
 */
export async function revenueMonths(
  m: EntityManager,
  period: ReportPeriod,
  /** The instants the period's first month starts and the month after its last starts. */
  window: { from: Date; until: Date },
  monthOf: (at: Date) => string,
): Promise<Map<number, RevenueMonth[]>> {
  const table = monthTable<RevenueMonth>(period, (month) => ({
    month,
    invoiced: ZERO,
    collected: ZERO,
    credits: ZERO,
    refunds: ZERO,
    written_off: ZERO,
  }));
  const sums = await queryArrays(
    m,
    `SELECT currency_id, month, SUM(invoiced_cents), SUM(collected_cents), SUM(credits_cents), SUM(refunds_cents)
     FROM revenue_month WHERE month >= :from AND month <= :to${currencyFilter(period, 'currency_id')}
     GROUP BY currency_id, month`,
    { from: period.from, to: period.to, currency: period.currency?.currency_id },
  );
  // Whole cents: an exact DECIMAL string from MariaDB, an integer well inside 2^53 from SQLite.
  const cents = (value: unknown) => new Money(value === null ? 0 : (value as string | number)).div(100);
  for (const [currency, month, invoiced, collected, credits, refunds] of sums) {
    const row = table.at(Number(currency), String(month));
    if (!row) continue;
    Object.assign(row, {
      invoiced: cents(invoiced),
      collected: cents(collected),
      credits: cents(credits),
      refunds: cents(refunds),
    });
  }
  const voided = await queryArrays(
    m,
    `SELECT currency_id, void_datetime, total FROM invoice
     WHERE void_datetime >= :voidFrom AND void_datetime < :voidUntil AND deleted_datetime IS NULL${currencyFilter(period, 'currency_id')}`,
    { voidFrom: window.from, voidUntil: window.until, currency: period.currency?.currency_id },
  );
  for (const [currency, at, total] of voided as Array<[number, Date | string, string | number]>) {
    const row = table.at(Number(currency), monthOf(asDate(at)));
    if (row) row.written_off = row.written_off.plus(new Money(total).toDecimalPlaces(2));
  }
  return table.rows;
}

export const AGING_BUCKETS = ['not_due', 'days_1_30', 'days_31_60', 'days_61_90', 'days_over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export type Aging = Record<AgingBucket | 'total', Decimal>;

export const emptyAging = (): Aging => ({
  not_due: ZERO,
  days_1_30: ZERO,
  days_31_60: ZERO,
  days_61_90: ZERO,
  days_over_90: ZERO,
  total: ZERO,
});

/**
 * Open balances as of the end of `asOf` by days past due, per currency and, with
 * `byCustomer`, per customer: each invoice dated by then, not void by then, owes its total
 * less the payments and credits applied by then plus the refunds given back by then. When
 * `asOf` is today or later only invoices open now can owe anything, so only they are read.
 * The database sums the balances (whole cents) per bucket: the bucket of a due date is
 * found by comparing it with the dates 30, 60 and 90 days before `asOf`. One query; as of
 * today it reads the open invoices through an index holding every column it needs.
 */
export async function receivables(
  m: EntityManager,
  asOf: string,
  today: string,
  /** The instant the account day after `asOf` starts: a void before it counts. */
  asOfEnd: Date,
  period: Pick<ReportPeriod, 'currency'>,
  byCustomer: boolean,
): Promise<{ totals: Map<number, Aging>; customers: Map<number, Map<number, Aging>> }> {
  const { cents } = amountSum(m);
  const daysBefore = (n: number) => DateTime.fromISO(asOf).minus({ days: n }).toISODate()!;
  const customer = byCustomer ? 'i.customer_id, ' : '';
  const openOnly = asOf >= today;
  const balance = `${cents('i.total')} - COALESCE(a.applied, 0)`;
  // MariaDB joins the applied sums invoice by invoice (a lateral derived table), not all of them.
  const rows = await queryArrays(
    m,
    `SELECT i.currency_id, ${customer}
       CASE WHEN i.due_date >= :asOf THEN 0 WHEN i.due_date >= :d30 THEN 1 WHEN i.due_date >= :d60 THEN 2
            WHEN i.due_date >= :d90 THEN 3 ELSE 4 END AS bucket,
       SUM(${balance})
     FROM invoice i ${openOnly ? throughIndex(m, 'invoice', OPEN_BALANCES_INDEX) : ''}
     LEFT JOIN (SELECT ta.invoice_id, SUM(${cents("CASE WHEN t.transaction_type = 'ref' THEN -ABS(ta.applied) ELSE ta.applied END")}) AS applied
       FROM transaction_applied ta JOIN payment_transaction t ON t.transaction_id = ta.transaction_id
         AND t.status_str IN ${COUNTING} AND t.transaction_date <= :asOf
       GROUP BY ta.invoice_id) a ON a.invoice_id = i.invoice_id
     WHERE i.date <= :asOf AND i.deleted_datetime IS NULL AND (i.void_datetime IS NULL OR i.void_datetime >= :dayAfter)
       ${openOnly ? "AND i.invoice_status_str LIKE 'open-%'" : ''}${period.currency ? ' AND i.currency_id = :currency' : ''}
       AND ${balance} > 0
     GROUP BY i.currency_id, ${customer}bucket`,
    {
      asOf,
      d30: daysBefore(30),
      d60: daysBefore(60),
      d90: daysBefore(90),
      dayAfter: asOfEnd,
      currency: period.currency?.currency_id,
    },
  );
  const totals = new Map<number, Aging>();
  const customers = new Map<number, Map<number, Aging>>();
  if (period.currency) totals.set(period.currency.currency_id, emptyAging());
  for (const row of rows) {
    const [currency, who, bucket, owed] = byCustomer ? row : [row[0], 0, row[1], row[2]];
    // Whole cents: an exact DECIMAL string from MariaDB, an integer well inside 2^53 from SQLite.
    const balance = new Money(owed as string | number).div(100);
    let all = totals.get(Number(currency));
    if (!all) totals.set(Number(currency), (all = emptyAging()));
    const targets = [all];
    if (byCustomer) {
      let ofCurrency = customers.get(Number(currency));
      if (!ofCurrency) customers.set(Number(currency), (ofCurrency = new Map<number, Aging>()));
      let mine = ofCurrency.get(Number(who));
      if (!mine) ofCurrency.set(Number(who), (mine = emptyAging()));
      targets.push(mine);
    }
    const name = AGING_BUCKETS[Number(bucket)];
    for (const aging of targets) {
      aging[name] = aging[name].plus(balance);
      aging.total = aging.total.plus(balance);
    }
  }
  return { totals, customers };
}
