import Decimal from 'decimal.js';

// What a billing run reports, apart from the run itself: the command line's parent of
// `--workers` shows progress and summaries with these alone, without loading the application.

/** One invoice a run wrote (or, in a dry run, would write). */
export interface RunInvoice {
  packageId: number;
  customerId: number;
  cycleStart: Date;
  invoiceId: number | null;
  date: string;
  currency: string;
  total: Decimal;
  /** Only in a dry run, which lists them: a real run has no reader of its lines and reads none. */
  lines?: Array<{ descrip: string | null; origin: string; amount: Decimal }>;
}

export interface BillingRunSummary {
  asOf: Date;
  dryRun: boolean;
  /** Subscriptions that were due when the run started. */
  due: number;
  invoices: number;
  /** Total billed per currency (ISO 4217). */
  billed: Record<string, Decimal>;
  failures: Array<{ packageId: number; reason: string }>;
  /** Set when this run billed nothing because another run holds the database (SQLite). */
  inProgressElsewhere?: string;
}

export interface BillingRunListener {
  /** SQLite: another process's run holds the database; this one waits for it to end. */
  waiting?(holderPid: number): void;
  started?(due: number): void;
  /** After each subscription (billed, skipped or failed). */
  progressed?(done: number, due: number): void;
  invoiced?(invoice: RunInvoice): void;
}

/** One of `count` workers billing the same run at once (`npm run billing -- --workers`). */
export interface RunWorker {
  index: number;
  count: number;
}

/** The totals billed per currency, for a summary line. */
export function describeTotals(billed: Record<string, Decimal>): string {
  const entries = Object.entries(billed);
  if (entries.length === 0) return 'nothing';
  return entries.map(([currency, total]) => `${total.toFixed(2)} ${currency}`).join(', '); // stop-check: deliberate, decimal.js total printed
}
