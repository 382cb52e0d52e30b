import Decimal from 'decimal.js';
import { AGING_BUCKETS } from '../money-reports';
import { RowSet } from '../analytics.service';
import { esc } from './html';
import { barChart } from './svg-chart';

/** What the page shows: the reports of one currency over the months picked. */
export interface DashboardData {
  currency: string;
  symbol: string;
  currencies: string[];
  from: string;
  to: string;
  asOf: string;
  mrr: RowSet['rows'];
  churn: RowSet['rows'];
  revenue: RowSet['rows'];
  receivables: RowSet['rows'];
  dunning: RowSet['rows'];
}

const AGING_NAMES: Record<(typeof AGING_BUCKETS)[number], string> = {
  not_due: 'Not yet due',
  days_1_30: '1–30 days',
  days_31_60: '31–60 days',
  days_61_90: '61–90 days',
  days_over_90: 'Over 90 days',
};

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** Figures arrive as JSON numbers already rounded to the cent; shown with 2 places. */
// Wire numbers are already rounded to cents; Decimal prints them exactly (never a float's toFixed).
const amount = (v: unknown): string => (v === null || v === undefined ? '–' : new Decimal(num(v)).toFixed(2));
const percent = (v: unknown): string =>
  v === null || v === undefined ? '–' : `${new Decimal(num(v)).times(100).toFixed(2)} %`;

function table(
  caption: string,
  columns: Array<[string, string, (v: unknown) => string]>,
  rows: RowSet['rows'],
): string {
  const head = columns.map(([, title]) => `<th scope="col">${esc(title)}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${columns
          .map(([key, , fmt], i) =>
            i === 0 ? `<th scope="row">${esc(fmt(r[key]))}</th>` : `<td>${esc(fmt(r[key]))}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('');
  return `<div class="scroll"><table><caption>${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

/** A rate (4 places) as a percentage for a bar, exact (no float product); none is 0. */
const pct = (v: unknown): number => new Decimal(num(v)).times(100).toNumber();

const text = (v: unknown): string => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v : '');

/**
 * The dashboard (DESIGN §6 "Analytics"): one HTML page, no script, charts drawn here as
 * SVG; a GET form picks the currency and months; each section links its CSV. Fluid to a
 * phone's width, and printable (no form, no links, charts kept whole on a page).
 */
export function dashboardPage(d: DashboardData): string {
  const query = `from=${esc(d.from)}&amp;to=${esc(d.to)}&amp;currency=${esc(d.currency)}`;
  const csv = (report: string, extra = '') =>
    `<a class="csv" href="/dashboard/csv/${report}?${query}${extra}" download>CSV</a>`;
  const months = d.mrr.map((r) => text(r.month));
  const money = (v: number) => `${d.symbol} ${Math.round(v).toLocaleString('en-US')}`;
  const last = d.mrr[d.mrr.length - 1] ?? {};
  const lastChurn = d.churn[d.churn.length - 1] ?? {};
  const aging = d.receivables[0] ?? {};
  const section = (id: string, title: string, report: string, body: string, extra = '') =>
    `<section id="${id}" aria-labelledby="${id}-h"><h2 id="${id}-h">${esc(title)} ${csv(report, extra)}</h2>${body}</section>`;

  const mrrChart = barChart({
    title: `MRR at each month's end (${d.currency})`,
    labels: months,
    series: [{ name: 'MRR', cls: 's-mrr', values: d.mrr.map((r) => num(r.mrr)) }],
    format: money,
  });
  const movementsChart = barChart({
    title: `MRR movements (${d.currency})`,
    labels: months,
    stacked: true,
    series: [
      { name: 'New', cls: 's-new', values: d.mrr.map((r) => num(r.new)) },
      { name: 'Expansion', cls: 's-exp', values: d.mrr.map((r) => num(r.expansion)) },
      { name: 'Reactivation', cls: 's-react', values: d.mrr.map((r) => num(r.reactivation)) },
      { name: 'Contraction', cls: 's-contr', values: d.mrr.map((r) => -num(r.contraction)) },
      { name: 'Churned', cls: 's-churn', values: d.mrr.map((r) => -num(r.churned)) },
    ],
    format: money,
  });
  const churnChart = barChart({
    title: `Churn and retention, % (${d.currency})`,
    labels: months,
    series: [
      { name: 'Customer churn', cls: 's-churn', values: d.churn.map((r) => pct(r.customer_churn_rate)) },
      { name: 'Gross revenue churn', cls: 's-contr', values: d.churn.map((r) => pct(r.gross_revenue_churn)) },
      { name: 'Net revenue retention', cls: 's-mrr', values: d.churn.map((r) => pct(r.net_revenue_retention)) },
    ],
    format: (v) => `${new Decimal(v).toDecimalPlaces(2).toString()} %`,
  });
  const revenueChart = barChart({
    title: `Invoiced and collected (${d.currency})`,
    labels: months,
    series: [
      { name: 'Invoiced', cls: 's-inv', values: d.revenue.map((r) => num(r.invoiced)) },
      { name: 'Collected', cls: 's-col', values: d.revenue.map((r) => num(r.collected)) },
    ],
    format: money,
  });
  const agingChart = barChart({
    title: `Receivables by days past due, ${d.asOf} (${d.currency})`,
    labels: AGING_BUCKETS.map((b) => AGING_NAMES[b]),
    series: [{ name: 'Open balance', cls: 's-aging', values: AGING_BUCKETS.map((b) => num(aging[b])) }],
    format: money,
  });
  const dunningChart = barChart({
    title: `Failed and recovered automatic charges (${d.currency})`,
    labels: months,
    series: [
      { name: 'Failed', cls: 's-churn', values: d.dunning.map((r) => num(r.failed_amount)) },
      { name: 'Recovered', cls: 's-col', values: d.dunning.map((r) => num(r.recovered_amount)) },
    ],
    format: money,
  });
  const options = d.currencies
    .map((c) => `<option value="${esc(c)}"${c === d.currency ? ' selected' : ''}>${esc(c)}</option>`)
    .join('');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Revenue dashboard (${esc(d.currency)})</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header,main{max-width:1100px;margin:0 auto;padding:12px 16px}
h1{font-size:1.4rem;margin:.4rem 0}h2{font-size:1.1rem;display:flex;justify-content:space-between;align-items:baseline}
form{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:end}label{display:flex;flex-direction:column;font-size:.85rem}
input,select,button{font:inherit;padding:6px 8px}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin:12px 0}
.tile{background:#fff;border:1px solid #d9dde5;border-radius:6px;padding:10px}.tile b{display:block;font-size:1.3rem}
section{background:#fff;border:1px solid #d9dde5;border-radius:6px;padding:8px 14px;margin:14px 0;break-inside:avoid}
.chart{width:100%;height:auto;max-height:320px}.grid{stroke:#e3e6ec}.axis{stroke:#6b7280}
.tick,.label,.legend{font-size:11px;fill:#4b5563}
.s-mrr{fill:#2b6cb0}.s-new{fill:#2f855a}.s-exp{fill:#68d391}.s-react{fill:#319795}.s-contr{fill:#ed8936}.s-churn{fill:#c53030}
.s-inv{fill:#2b6cb0}.s-col{fill:#2f855a}.s-aging{fill:#805ad5}
.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums;font-size:.9rem}
caption{text-align:left;color:#4b5563;padding:4px 0}th,td{padding:4px 8px;border-bottom:1px solid #e3e6ec;text-align:right;white-space:nowrap}
th[scope=row],thead th:first-child{text-align:left}a.csv{font-size:.85rem}
@media (max-width:600px){body{font-size:14px}.tiles{grid-template-columns:1fr 1fr}}
@media print{body{background:#fff}form,a.csv{display:none}section{border:0;page-break-inside:avoid}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}.chart{max-height:none}}
</style></head>
<body><header><h1>Revenue dashboard</h1>
<form method="get" action="/dashboard" aria-label="Currency and period">
<label>Currency<select name="currency">${options}</select></label>
<label>From<input type="month" name="from" value="${esc(d.from)}" pattern="\\d{4}-\\d{2}"></label>
<label>To<input type="month" name="to" value="${esc(d.to)}" pattern="\\d{4}-\\d{2}"></label>
<button type="submit">Show</button></form>
<div class="tiles">
<div class="tile" id="tile-mrr">MRR, ${esc(text(last.month ?? d.to))}<b>${esc(d.symbol)} ${esc(amount(last.mrr))}</b></div>
<div class="tile" id="tile-arr">ARR<b>${esc(d.symbol)} ${esc(amount(last.arr))}</b></div>
<div class="tile" id="tile-customers">Paying customers<b>${esc(text(last.customers ?? 0))}</b></div>
<div class="tile" id="tile-nrr">Net revenue retention<b>${esc(percent(lastChurn.net_revenue_retention))}</b></div>
</div></header>
<main>
${section(
  'mrr',
  'MRR',
  'mrr',
  mrrChart +
    movementsChart +
    table(
      'MRR movements per month',
      [
        ['month', 'Month', text],
        ['start_mrr', 'Start', amount],
        ['new', 'New', amount],
        ['expansion', 'Expansion', amount],
        ['reactivation', 'Reactivation', amount],
        ['contraction', 'Contraction', amount],
        ['churned', 'Churned', amount],
        ['mrr', 'End MRR', amount],
        ['arr', 'ARR', amount],
        ['customers', 'Customers', text],
      ],
      d.mrr,
    ),
)}
${section(
  'churn',
  'Churn and retention',
  'churn',
  churnChart +
    table(
      'Churn and retention per month',
      [
        ['month', 'Month', text],
        ['customer_churn_rate', 'Customer churn', percent],
        ['gross_revenue_churn', 'Gross revenue churn', percent],
        ['net_revenue_retention', 'Net revenue retention', percent],
        ['arppu', 'ARPPU', amount],
      ],
      d.churn,
    ),
)}
${section(
  'revenue',
  'Revenue',
  'revenue',
  revenueChart +
    table(
      'Revenue per month',
      [
        ['month', 'Month', text],
        ['invoiced', 'Invoiced', amount],
        ['collected', 'Collected', amount],
        ['credits', 'Credits', amount],
        ['refunds', 'Refunds', amount],
        ['written_off', 'Written off', amount],
      ],
      d.revenue,
    ),
)}
${section(
  'receivables',
  'Receivables aging',
  'receivables',
  agingChart +
    table(
      `Open balances as of ${d.asOf}`,
      [
        ['as_of', 'As of', text],
        ...AGING_BUCKETS.map((b): [string, string, (v: unknown) => string] => [b, AGING_NAMES[b], amount]),
        ['total', 'Total', amount],
      ],
      d.receivables,
    ),
  `&amp;as_of=${esc(d.asOf)}`,
)}
${section(
  'dunning',
  'Dunning recovery',
  'dunning',
  dunningChart +
    table(
      'Automatic charges that failed, and what dunning recovered',
      [
        ['month', 'Month', text],
        ['failed_invoices', 'Failed', text],
        ['failed_amount', 'Failed amount', amount],
        ['recovered_invoices', 'Recovered', text],
        ['recovered_amount', 'Recovered amount', amount],
        ['recovery_rate', 'Recovery rate', percent],
        ['cancelled_nonpayment', 'Cancelled for non-payment', text],
      ],
      d.dunning,
    ),
)}
</main></body></html>`;
}
