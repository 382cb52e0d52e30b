import { Inject, Injectable } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { Clock } from 'src/core/clock/clock';
import { ApiError } from 'src/core/envelope/api-error';
import { moneyToJson } from 'src/core/money/decimal';
import { parsePaging } from 'src/core/query/paging';
import { accountToday } from 'src/core/time/account-date';
import { zoneNamed } from 'src/core/time/zone-offsets';
import { Currency } from 'src/reference/entities/reference.entities';
import { dunningMonths, usageRows } from './activity-reports';
import { AGING_BUCKETS, Aging, receivables, revenueMonths } from './money-reports';
import { mrrMovements, MrrMonth } from './mrr-report';
import { MrrHistory } from './mrr-history';
import { addMonths, asOfParam, reportPeriod, ReportPeriod } from './report-period';

/** A report's answer: one row set per currency, each row plain figures (JSON numbers). */
export interface RowSet {
  currency: string;
  /** `receivables?by=customer`: how many customers of this currency owe money (on every page). */
  count?: number;
  rows: Array<Record<string, string | number | null>>;
}

export interface Report {
  /** The CSV columns, `currency` first. */
  columns: string[];
  sets: RowSet[];
}

export const REPORTS = ['mrr', 'churn', 'revenue', 'receivables', 'dunning', 'usage'] as const;
export type ReportName = (typeof REPORTS)[number];

const money = (d: Decimal): number => moneyToJson(d);
const rate = (part: Decimal, whole: Decimal): number | null =>
  whole.isZero() ? null : part.div(whole).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toNumber();

/**
 * The revenue analytics (DESIGN §6 "Analytics"): each report per currency, never
 * converted, over the months asked (account zone), as row sets that the API sends as JSON
 * or CSV and the dashboard draws.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly history: MrrHistory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  today(): string {
    return accountToday(this.clock.now(), this.config.timezone);
  }

  async currencies(): Promise<Currency[]> {
    return this.dataSource.manager.find(Currency, { order: { currency_id: 'ASC' } });
  }

  async period(query: Record<string, unknown>): Promise<ReportPeriod> {
    return reportPeriod(query, this.today(), await this.currencies());
  }

  async report(name: string, query: Record<string, unknown>): Promise<Report> {
    if (!(REPORTS as readonly string[]).includes(name)) throw ApiError.badRequest('Invalid endpoint.');
    const period = await this.period(query);
    const codes = new Map((await this.currencies()).map((c) => [c.currency_id, c.currency_iso4217]));
    const window = { from: this.monthStart(period.from), until: this.monthStart(addMonths(period.to, 1)) };
    const monthOf = (at: Date) => this.history.monthOf(at);
    switch (name as ReportName) {
      case 'mrr':
        return this.sets(codes, await mrrMovements(this.dataSource.manager, period), MRR_COLUMNS, presentMrr);
      case 'churn':
        return this.sets(codes, await mrrMovements(this.dataSource.manager, period), CHURN_COLUMNS, presentChurn);
      case 'revenue':
        return this.sets(
          codes,
          await revenueMonths(this.dataSource.manager, period, window, monthOf),
          REVENUE_COLUMNS,
          (r) => ({
            month: r.month,
            invoiced: money(r.invoiced),
            collected: money(r.collected),
            credits: money(r.credits),
            refunds: money(r.refunds),
            written_off: money(r.written_off),
          }),
        );
      case 'dunning': {
        const bounds = [...period.months, addMonths(period.to, 1)].map((mo) => this.monthStart(mo));
        const months = await dunningMonths(this.dataSource.manager, period, bounds);
        return this.sets(codes, months, DUNNING_COLUMNS, (r) => ({
          month: r.month,
          failed_invoices: r.failed_invoices,
          failed_amount: money(r.failed_amount),
          recovered_invoices: r.recovered_invoices,
          recovered_amount: money(r.recovered_amount),
          recovery_rate: r.recovery_rate === null ? null : r.recovery_rate.toNumber(),
          cancelled_nonpayment: r.cancelled_nonpayment,
        }));
      }
      case 'usage':
        return this.sets(codes, await usageRows(this.dataSource.manager, period), USAGE_COLUMNS, (r) => ({
          month: r.month,
          item_id: r.item_id,
          item_name: r.item_name,
          units: r.units.toNumber(),
          amount: money(r.amount),
        }));
      case 'receivables':
        return this.receivables(query, period, codes);
    }
  }

  private async receivables(
    query: Record<string, unknown>,
    period: ReportPeriod,
    codes: Map<number, string>,
  ): Promise<Report> {
    const today = this.today();
    const asOf = asOfParam(query, today);
    const by = query.by;
    if (by !== undefined && by !== '' && by !== 'customer') throw ApiError.badRequest('Field "by" must be "customer".');
    const asOfEnd = DateTime.fromISO(asOf, { zone: zoneNamed(this.config.timezone) })
      .plus({ days: 1 })
      .toJSDate();
    // Up to every customer owing money: paged as every list is (SPEC "Paging"), over the
    // customers in currency then customer id order; each set counts all of its customers.
    const page = by === 'customer' ? parsePaging(query.offset, query.limit) : null;
    const found = await receivables(this.dataSource.manager, asOf, today, asOfEnd, period, page);
    const aging = (a: Aging) =>
      Object.fromEntries([...AGING_BUCKETS, 'total'].map((b) => [b, money(a[b as keyof Aging])]));
    if (page) {
      const sets = [...found.counts.entries()]
        .sort(([a], [b]) => a - b)
        .map(([currency, count]): RowSet => ({
          currency: codes.get(currency) ?? String(currency),
          count,
          rows: [...(found.customers.get(currency) ?? new Map<number, Aging>()).entries()]
            .sort(([a], [b]) => a - b)
            .map(([customer, a]) => Object.assign({ as_of: asOf, customer_id: customer }, aging(a))),
        }));
      if (period.currency && !sets.length)
        sets.push({ currency: period.currency.currency_iso4217, count: 0, rows: [] });
      return { columns: ['currency', 'as_of', 'customer_id', ...AGING_BUCKETS, 'total'], sets };
    }
    return {
      columns: ['currency', 'as_of', ...AGING_BUCKETS, 'total'],
      sets: [...found.totals.entries()].map(([currency, a]) => ({
        currency: codes.get(currency) ?? String(currency),
        rows: [Object.assign({ as_of: asOf }, aging(a))],
      })),
    };
  }

  /** The instant an account-zone month (`YYYY-MM`) starts. */
  private monthStart(month: string): Date {
    return DateTime.fromISO(`${month}-01`, { zone: zoneNamed(this.config.timezone) }).toJSDate();
  }

  private sets<R>(
    codes: Map<number, string>,
    byCurrency: Map<number, R[]>,
    columns: string[],
    present: (row: R) => Record<string, string | number | null>,
  ): Report {
    return {
      columns: ['currency', ...columns],
      sets: [...byCurrency.entries()]
        .sort(([a], [b]) => a - b)
        .map(([currency, rows]) => ({ currency: codes.get(currency) ?? String(currency), rows: rows.map(present) })),
    };
  }
}

const MRR_COLUMNS = [
  'month',
  'start_mrr',
  'new',
  'expansion',
  'contraction',
  'churned',
  'reactivation',
  'mrr',
  'arr',
  'customers',
];

function presentMrr(r: MrrMonth): Record<string, number | string> {
  return {
    month: r.month,
    start_mrr: money(r.start),
    new: money(r.new),
    expansion: money(r.expansion),
    contraction: money(r.contraction),
    churned: money(r.churned),
    reactivation: money(r.reactivation),
    mrr: money(r.end),
    arr: money(r.end.times(12)),
    customers: r.customers,
  };
}

const CHURN_COLUMNS = [
  'month',
  'start_customers',
  'churned_customers',
  'customer_churn_rate',
  'start_mrr',
  'churned',
  'contraction',
  'expansion',
  'gross_revenue_churn',
  'net_revenue_retention',
  'mrr',
  'customers',
  'arppu',
];

/**
 * Customer churn rate = customers churned ÷ paying customers at the month's start; gross
 * revenue churn = (churned + contraction) ÷ start MRR; net revenue retention = (start MRR
 * + expansion − contraction − churned) ÷ start MRR (new and reactivated revenue left
 * out); ARPPU = end MRR ÷ paying customers at the end. Rates to 4 places, null on a zero
 * denominator.
 */
function presentChurn(r: MrrMonth): Record<string, number | string | null> {
  return {
    month: r.month,
    start_customers: r.startCustomers,
    churned_customers: r.churnedCustomers,
    customer_churn_rate: rate(new Decimal(r.churnedCustomers), new Decimal(r.startCustomers)),
    start_mrr: money(r.start),
    churned: money(r.churned),
    contraction: money(r.contraction),
    expansion: money(r.expansion),
    gross_revenue_churn: rate(r.churned.plus(r.contraction), r.start),
    net_revenue_retention: rate(r.start.plus(r.expansion).minus(r.contraction).minus(r.churned), r.start),
    mrr: money(r.end),
    customers: r.customers,
    arppu: r.customers ? money(r.end.div(r.customers).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)) : null,
  };
}

const REVENUE_COLUMNS = ['month', 'invoiced', 'collected', 'credits', 'refunds', 'written_off'];
const DUNNING_COLUMNS = [
  'month',
  'failed_invoices',
  'failed_amount',
  'recovered_invoices',
  'recovered_amount',
  'recovery_rate',
  'cancelled_nonpayment',
];
const USAGE_COLUMNS = ['month', 'item_id', 'item_name', 'units', 'amount'];
