import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { EntityManager } from 'typeorm';
import { amountSum } from 'src/core/money/amount-sum';
import { Money, ZERO } from 'src/core/money/decimal';
import { queryArrays } from 'src/database/raw-query';
import { asDate } from './db-values';
import { ReportPeriod } from './report-period';

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

/** A page of customers (SPEC "Paging"), in currency then customer id order. */
export interface CustomerPage {
  offset: number;
  limit: number;
}

/** Open balances per currency and, for a page of customers, per customer; `counts`: customers owing, per currency. */
export interface Receivables {
  totals: Map<number, Aging>;
  customers: Map<number, Map<number, Aging>>;
  counts: Map<number, number>;
}

/**
 * Open balances as of the end of `asOf` by days past due, per currency or, with `page`,
 * per customer for a page of the customers owing money: each invoice dated by then, not
 * void by then, owes its total less the payments and credits applied by then plus the
 * refunds given back by then. When `asOf` is today or later only invoices open now can
 * owe anything: they are read from `open_invoice` (kept by row triggers, migration
 * OpenInvoices), and applications are summed only for those that ever had any. The
 * database sums the balances (whole cents) per bucket: the bucket of a due date is found
 * by comparing it with the dates 30, 60 and 90 days before `asOf`. One query per
 * currency totals; with `page`, one for the count of customers owing, one for the page's
 * customers and one for their buckets.
 */
export async function receivables(
  m: EntityManager,
  asOf: string,
  today: string,
  /** The instant the account day after `asOf` starts: a void before it counts. */
  asOfEnd: Date,
  period: Pick<ReportPeriod, 'currency'>,
  page: CustomerPage | null,
): Promise<Receivables> {
  const { cents } = amountSum(m);
  const daysBefore = (n: number) => DateTime.fromISO(asOf).minus({ days: n }).toISODate()!;
  const params = {
    asOf,
    d30: daysBefore(30),
    d60: daysBefore(60),
    d90: daysBefore(90),
    dayAfter: asOfEnd,
    currency: period.currency?.currency_id,
  };
  const applied = `(SELECT ta.invoice_id, SUM(${cents("CASE WHEN t.transaction_type = 'ref' THEN -ABS(ta.applied) ELSE ta.applied END")}) AS applied
       FROM transaction_applied ta JOIN payment_transaction t ON t.transaction_id = ta.transaction_id
         AND t.status_str IN ${COUNTING} AND t.transaction_date <= :asOf
       GROUP BY ta.invoice_id) a`;
  /** Each invoice's balance (maybe none), of the customers `who` names (SQL) if given. */
  const owing = (who = '') => {
    const where = `i.date <= :asOf AND (i.void_datetime IS NULL OR i.void_datetime >= :dayAfter)${
      period.currency ? ' AND i.currency_id = :currency' : ''
    }${who}`;
    const rows = `SELECT i.currency_id, i.customer_id, i.due_date, ${cents('i.total')} - COALESCE(a.applied, 0) AS balance`;
    // MariaDB joins the applied sums invoice by invoice (a lateral derived table), not all of them.
    const sql =
      asOf >= today
        ? `SELECT i.currency_id, i.customer_id, i.due_date, ${cents('i.total')} AS balance FROM open_invoice i
           WHERE i.has_applications = 0 AND ${where}
           UNION ALL ${rows} FROM open_invoice i LEFT JOIN ${applied} ON a.invoice_id = i.invoice_id
           WHERE i.has_applications = 1 AND ${where}`
        : `${rows} FROM invoice i LEFT JOIN ${applied} ON a.invoice_id = i.invoice_id
           WHERE i.deleted_datetime IS NULL AND ${where}`;
    return `(${sql}) o`;
  };
  const bucket = `CASE WHEN o.due_date >= :asOf THEN 0 WHEN o.due_date >= :d30 THEN 1 WHEN o.due_date >= :d60 THEN 2
       WHEN o.due_date >= :d90 THEN 3 ELSE 4 END`;
  // Whole cents: an exact DECIMAL string from MariaDB, an integer well inside 2^53 from SQLite.
  const money = (owed: unknown) => new Money(owed as string | number).div(100);
  const add = (aging: Aging, bucketIndex: unknown, owed: unknown) => {
    const name = AGING_BUCKETS[Number(bucketIndex)];
    aging[name] = aging[name].plus(money(owed));
    aging.total = aging.total.plus(money(owed));
  };
  const result: Receivables = { totals: new Map(), customers: new Map(), counts: new Map() };
  if (!page) {
    if (period.currency) result.totals.set(period.currency.currency_id, emptyAging());
    const rows = await queryArrays(
      m,
      `SELECT o.currency_id, ${bucket} AS bucket, SUM(o.balance) FROM ${owing()} WHERE o.balance > 0
       GROUP BY o.currency_id, bucket`,
      params,
    );
    for (const [currency, at, owed] of rows) {
      let all = result.totals.get(Number(currency));
      if (!all) result.totals.set(Number(currency), (all = emptyAging()));
      add(all, at, owed);
    }
    return result;
  }
  // How many customers owe, per currency (every currency's set shows it), and the page's.
  const counts = await queryArrays(
    m,
    `SELECT o.currency_id, COUNT(DISTINCT o.customer_id) FROM ${owing()} WHERE o.balance > 0 GROUP BY o.currency_id`,
    params,
  );
  for (const [currency, n] of counts) result.counts.set(Number(currency), Number(n));
  const listed = await queryArrays(
    m,
    `SELECT o.currency_id, o.customer_id FROM ${owing()} WHERE o.balance > 0 GROUP BY o.currency_id, o.customer_id
     ORDER BY o.currency_id, o.customer_id LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  const keys = listed.map(([c, who]) => [Number(c), Number(who)]);
  for (const [currency, who] of keys) {
    let ofCurrency = result.customers.get(currency);
    if (!ofCurrency) result.customers.set(currency, (ofCurrency = new Map<number, Aging>()));
    ofCurrency.set(who, emptyAging());
  }
  if (keys.length === 0) return result;
  const rows = await queryArrays(
    m,
    `SELECT o.currency_id, o.customer_id, ${bucket} AS bucket, SUM(o.balance) FROM ${owing(' AND i.customer_id IN (:...who)')}
     WHERE o.balance > 0 GROUP BY o.currency_id, o.customer_id, bucket`,
    { ...params, who: [...new Set(keys.map(([, who]) => who))] },
  );
  for (const [currency, who, at, owed] of rows) {
    const mine = result.customers.get(Number(currency))?.get(Number(who));
    if (mine) add(mine, at, owed);
  }
  return result;
}
