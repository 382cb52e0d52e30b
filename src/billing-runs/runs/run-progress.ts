import { BillingRunListener, BillingRunSummary, describeTotals, RunInvoice } from './run-summary';

/** Where the command line writes: a terminal gets a live line, anything else periodic log lines. */
export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** A terminal's line is redrawn at most this often; a log gets a line this often. */
const TTY_REDRAW_MS = 200;
const LOG_EVERY_MS = 10_000;

/**
 * Progress of a run for `npm run billing` (done/total, rate, time left): redrawn in place on
 * a terminal, as a log line every 10 s otherwise; a dry run also lists each invoice it would
 * write. `now` is the wall clock of the process (progress is not business time).
 */
export class RunProgress implements BillingRunListener {
  private startedAt = 0;
  private shownAt = 0;
  private due = 0;
  private done = 0;

  constructor(
    private readonly out: ProgressOutput,
    private readonly listInvoices: boolean,
    private readonly now: () => number = () => performance.now(),
  ) {}

  waiting(holderPid: number): void {
    this.out.write(`waiting for the billing run in progress (process ${holderPid}) to end\n`);
  }

  started(due: number): void {
    this.startedAt = this.now();
    this.shownAt = this.startedAt;
    this.due = due;
    this.out.write(`${due} subscription${due === 1 ? '' : 's'} due\n`);
  }

  progressed(done: number, due: number): void {
    this.done = done;
    this.due = due;
    const now = this.now();
    const every = this.out.isTTY ? TTY_REDRAW_MS : LOG_EVERY_MS;
    if (now - this.shownAt < every && done < due) return;
    this.shownAt = now;
    this.out.write(this.out.isTTY ? `\r${this.line(now)}\x1b[K` : `${this.line(now)}\n`);
  }

  invoiced(invoice: RunInvoice): void {
    if (!this.listInvoices) return;
    const head =
      `${this.out.isTTY ? '\r\x1b[K' : ''}package ${invoice.packageId} (customer ${invoice.customerId}): ` +
      `invoice dated ${invoice.date}, ${invoice.total.toFixed(2)} ${invoice.currency}`; // stop-check: deliberate, decimal.js's toFixed, for display
    const lines = (invoice.lines ?? []).map(
      (l) => `    ${l.origin.padEnd(9)} ${l.amount.toFixed(2).padStart(12)}  ${l.descrip ?? ''}`, // stop-check: deliberate, decimal.js amount printed
    );
    this.out.write(`${[head, ...lines].join('\n')}\n`);
  }

  /**
   * The closing report: invoices, totals per currency, failures with their reasons. A dry run
   * says so on its first line only: the rest reads as the real run on the same database will.
   */
  finish(summary: BillingRunSummary): void {
    if (this.out.isTTY && this.due > 0) this.out.write('\n');
    const failures = summary.failures.map((f) => `  package ${f.packageId}: ${f.reason}`);
    this.out.write(
      [
        `Billing run as of ${summary.asOf.toISOString()}${summary.dryRun ? ' (dry run: nothing written)' : ''}`,
        `  subscriptions due: ${summary.due}`,
        `  invoices: ${summary.invoices}`,
        `  total billed: ${describeTotals(summary.billed)}`,
        `  failures: ${summary.failures.length}`,
        ...failures,
        ...(summary.inProgressElsewhere ? [`  ${summary.inProgressElsewhere}`] : []),
      ].join('\n') + '\n',
    );
  }

  private line(now: number): string {
    const seconds = (now - this.startedAt) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const left = rate > 0 ? Math.ceil((this.due - this.done) / rate) : null;
    const percent = this.due > 0 ? Math.floor((this.done / this.due) * 100) : 100;
    return `billing ${this.done}/${this.due} (${percent}%), ${rate.toFixed(1)}/s, ${left === null ? '?' : `${left}s`} left`; // stop-check: deliberate, a progress rate, not money
  }
}
