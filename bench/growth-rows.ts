/**
 * The rows of the growth benchmark (bench/growth.ts): per customer, its row, one
 * subscription (and its MRR history row) and five invoices, written straight into a migrated schema by the bulk
 * loader (BenchDatabase.bulkLoad), never through the API.
 */
import { SEED_COLUMNS, seedRow, SeedValue } from './seed-rows';

/** One table the loader fills: its columns, and the rows customer `n` (1-based) owns in it. */
export interface BulkTable {
  table: string;
  columns: readonly string[];
  rowsOf(n: number): SeedValue[][];
}

export const INVOICES_PER_CUSTOMER = 5;

/**
 * The account date the data is laid out around (America/Chicago by default, as the server):
 * the benchmark runs on the real clock, so "today" is the real one.
 */
export interface GrowthDates {
  /** UTC `YYYY-MM-DD HH:MM:SS` of the load. */
  now: string;
  /** Account dates: `past` months back, `future` ahead (YYYY-MM-DD). */
  monthsAgo(months: number): string;
  daysAhead(days: number): string;
}

export function growthDates(now: Date): GrowthDates {
  const day = (date: Date): string => date.toISOString().slice(0, 10);
  return {
    now: now.toISOString().slice(0, 19).replace('T', ' '),
    monthsAgo: (months) => day(new Date(now.getTime() - months * 30 * 86_400_000)),
    daysAhead: (days) => day(new Date(now.getTime() + days * 86_400_000)),
  };
}

/** Every tenth customer has a past-due open invoice: the `active-overdue` ones. */
export function isOverdueCustomer(n: number): boolean {
  return n % 10 === 0;
}

const INVOICE_COLUMNS = [
  'invoice_id',
  'token',
  'customer_id',
  'package_id',
  'refnumber',
  'date',
  'due_date',
  'subtotal',
  'taxes',
  'total',
  'sum_base',
  'sum_usage',
  'sum_onetime',
  'invoice_status_str',
  'write_datetime',
  'mod_datetime',
] as const;

const PACKAGE_COLUMNS = [
  'package_id',
  'token',
  'customer_id',
  'start_datetime',
  'next_invoice_datetime',
  'package_status_str',
  'mrr',
  'open_due_date',
  'write_datetime',
  'mod_datetime',
] as const;

/**
 * Customer `n`: invoices 1–4 paid, months 5 to 2 back; invoice 5 open, issued last month
 * and due in 20 days, or (every tenth customer) issued two months back and 30 days past
 * due. The customer and its subscription store that open invoice's due date, as the invoice
 * writers keep it. Ids are fixed (customer n, package n, invoices 5(n−1)+1..5n), tokens
 * unique by their id.
 */
export function growthTables(dates: GrowthDates): BulkTable[] {
  const openDue = (n: number): string => (isOverdueCustomer(n) ? dates.monthsAgo(1) : dates.daysAhead(20));
  return [
    {
      table: 'customer',
      columns: [...SEED_COLUMNS, 'open_due_date'],
      rowsOf: (n) => {
        const row = seedRow(n, dates.now);
        // Spread over the last ~2.7 years, so ordering by creation date has work to do.
        const written = new Date(Date.parse(`${dates.now}Z`) - n * 86_400) // one day per 1,000 customers
          .toISOString()
          .slice(0, 19)
          .replace('T', ' ');
        row[SEED_COLUMNS.indexOf('write_datetime')] = written;
        return [[...row, openDue(n)]];
      },
    },
    {
      table: 'package',
      columns: PACKAGE_COLUMNS,
      rowsOf: (n) => [
        [n, token('p', n), n, `${dates.monthsAgo(5)} 00:00:00`, `${dates.daysAhead(10)} 00:00:00`, 'active', '40.00',
          openDue(n), dates.now, dates.now],
      ], // prettier-ignore
    },
    {
      // The MRR history the subscription's creation wrote: without it, a server's first
      // sweep (analytics/mrr-recording.ts) records every subscription before it listens.
      table: 'mrr_change',
      columns: ['mrr_change_id', 'package_id', 'customer_id', 'currency_id', 'change_datetime', 'month', 'mrr', 'delta'],
      rowsOf: (n) => [[n, n, n, 1, `${dates.monthsAgo(5)} 00:00:00`, dates.monthsAgo(5).slice(0, 7), '40.00', '40.00']],
    },
    {
      table: 'invoice',
      columns: INVOICE_COLUMNS,
      rowsOf: (n) =>
        Array.from({ length: INVOICES_PER_CUSTOMER }, (_, i) => {
          const id = (n - 1) * INVOICES_PER_CUSTOMER + i + 1;
          const open = i === INVOICES_PER_CUSTOMER - 1;
          const date = open ? dates.monthsAgo(isOverdueCustomer(n) ? 2 : 1) : dates.monthsAgo(5 - i);
          const due = open ? openDue(n) : dates.monthsAgo(4 - i);
          const status = open ? (isOverdueCustomer(n) ? 'open-overdue' : 'open-unpaid') : 'closed-paid';
          return [id, token('i', id), n, n, String(id), date, due, '40.00', '0.00', '40.00', '40.00', '0.00', '0.00',
            status, dates.now, dates.now]; // prettier-ignore
        }),
    },
  ];
}

/** 12 characters, unique per prefix and id. */
function token(prefix: string, id: number): string {
  return prefix + id.toString(36).padStart(11, '0');
}
