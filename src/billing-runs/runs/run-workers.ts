import { fork } from 'node:child_process';
import Decimal from 'decimal.js';
import { BillingRunListener, BillingRunSummary } from './run-summary';

/**
 * What a worker process tells the command line that started it. Not each invoice: the
 * command lists invoices only in a dry run, which never runs in workers, and a message per
 * invoice cost both processes CPU (JSON over IPC) in a run bound by it.
 */
type WorkerMessage =
  | { kind: 'started'; due: number }
  | { kind: 'progressed'; done: number }
  | { kind: 'finished'; invoices: number; billed: Record<string, string>; failures: BillingRunSummary['failures'] };

/** A worker sends its progress at most this often (the command line redraws no faster). */
const PROGRESS_EVERY_MS = 100;

/**
 * The listener of a worker process (`--worker i/n`): its progress and summary go to the command line
 * that started it, which shows one progress line and one summary for all its workers.
 */
export class WorkerReporter implements BillingRunListener {
  private sentAt = 0;
  private done = 0;

  /** `send` calls back once the message is out (the process may exit after the last one). */
  constructor(private readonly send: (message: WorkerMessage, sent?: () => void) => void) {}

  started(due: number): void {
    this.send({ kind: 'started', due });
  }

  progressed(done: number): void {
    this.done = done;
    const now = performance.now();
    if (now - this.sentAt < PROGRESS_EVERY_MS) return;
    this.sentAt = now;
    this.send({ kind: 'progressed', done });
  }

  /** The last progress and the summary, resolved once both are out. */
  finish(summary: BillingRunSummary): Promise<void> {
    this.send({ kind: 'progressed', done: this.done });
    const billed = Object.fromEntries(Object.entries(summary.billed).map(([c, total]) => [c, total.toString()]));
    return new Promise((sent) =>
      this.send({ kind: 'finished', invoices: summary.invoices, billed, failures: summary.failures }, sent),
    );
  }
}

/**
 * One run (never a dry run: workers share it through what it writes) in `count` worker
 * processes at once (this script again, with `workerArgs(i)`):
 * their progress shown as one (`listener`), their summaries added up. Each worker starts on
 * its own share of the due subscriptions and goes round to it (BillingRun), and the row locks
 * and the `billing_cycle` key keep each cycle billed once whichever worker reaches it. A
 * worker that ends without its summary is a failure of the run; the others go on (and
 * reach its share).
 */
export async function runInWorkers(
  asOf: Date,
  count: number,
  workerArgs: (index: number) => string[],
  listener: BillingRunListener,
): Promise<{ summary: BillingRunSummary; lostWorkers: string[] }> {
  const summary: BillingRunSummary = { asOf, dryRun: false, due: 0, invoices: 0, billed: {}, failures: [] };
  const done = new Array<number>(count).fill(0);
  let started = false;
  const lostWorkers: string[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      (_, index) =>
        new Promise<void>((finish) => {
          let finished = false;
          const child = fork(process.argv[1], workerArgs(index), { execArgv: process.execArgv, stdio: 'inherit' });
          child.on('message', (message: WorkerMessage) => {
            switch (message.kind) {
              case 'started':
                // Every worker counts the same due subscriptions as it starts: the first count is shown.
                if (!started) listener.started?.(message.due);
                started = true;
                summary.due = Math.max(summary.due, message.due);
                break;
              case 'progressed':
                done[index] = message.done;
                // A subscription two workers reached is counted by both: never shown past the due count.
                listener.progressed?.(
                  Math.min(
                    summary.due,
                    done.reduce((a, b) => a + b, 0),
                  ),
                  summary.due,
                );
                break;
              case 'finished':
                finished = true;
                summary.invoices += message.invoices;
                for (const [currency, total] of Object.entries(message.billed)) {
                  summary.billed[currency] = (summary.billed[currency] ?? new Decimal(0)).plus(total);
                }
                summary.failures.push(...message.failures);
                break;
            }
          });
          const lost = (why: string): void => {
            if (finished) return;
            finished = true;
            lostWorkers.push(`worker ${index + 1} of ${count} ended without finishing (${why})`);
          };
          child.once('error', (error) => {
            lost(error.message);
            finish();
          });
          child.once('exit', (code, signal) => {
            lost(signal ?? `exit code ${code}`);
            finish();
          });
        }),
    ),
  );
  return { summary, lostWorkers };
}
