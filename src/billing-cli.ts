import 'reflect-metadata';
import { RunProgress } from './billing-runs/runs/run-progress';
import { RunWorker } from './billing-runs/runs/run-summary';
import { runInWorkers, WorkerReporter } from './billing-runs/runs/run-workers';
import { AppConfig } from './config/app-config';
import { loadConfig, loadDotEnv } from './config/load-config';
import { Clock } from './core/clock/clock';
import { parseInputDatetime } from './core/time/datetime-input';

const USAGE = `Usage: npm run billing -- [--as-of <datetime>] [--dry-run] [--workers <n>]
  --as-of    bill every cycle started by then (account zone unless an offset is given; default now)
  --dry-run  print what would be invoiced, write nothing
  --workers  bill in n processes at once (MySQL/MariaDB; default 1)
`;

/**
 * SQLite: how long a run waits for another process's run on the same file to end; past it,
 * it says so and exits 0 without billing (the other run bills every due cycle).
 */
const WAIT_FOR_OTHER_RUN_MS = 10 * 60_000;

/** Worker processes one command may start. */
const MAX_WORKERS = 32;

interface CliArgs {
  asOf?: string;
  dryRun: boolean;
  workers: number;
  /** Set in a worker process started by `--workers`: its place among them. */
  worker?: RunWorker;
}

/**
 * `npm run billing`: one billing run on the configured database (DESIGN §6 "Billing runs"),
 * in a Nest application context (no HTTP listener, no timers: APP_ROLE=api mounts no due
 * work). Exits 1 when a subscription could not be billed, 2 on bad arguments.
 */
async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  const args = parseArgs(argv);
  if (args === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n${USAGE}`);
    return 2;
  }
  const config = loadConfig({ ...process.env, APP_ROLE: 'api' });
  const asOf = args.asOf === undefined ? undefined : parseInputDatetime(args.asOf, config.timezone);
  if (asOf === null) {
    process.stderr.write(`--as-of: "${args.asOf}" is not a datetime (YYYY-MM-DD, YYYY-MM-DD HH:mm:ss or ISO 8601)\n`);
    return 2;
  }
  if (args.workers > 1) {
    if (args.dryRun) {
      // Workers share a run through what it writes (a billed cycle is no longer due).
      process.stderr.write('--workers: a dry run writes nothing for workers to share; run it without --workers\n');
      return 2;
    }
    if (config.db.type !== 'mysql') {
      process.stderr.write('--workers: SQLite has one writer; bill in several processes on MySQL/MariaDB only\n');
      return 2;
    }
    // One moment for all the workers: the Clock's now (no test clock in a command line).
    return billInWorkers(asOf ?? new Clock().now(), args);
  }
  return billHere(config, asOf, args);
}

/** The run in this process: the application, loaded only here (the parent of `--workers` needs none of it). */
async function billHere(config: AppConfig, asOf: Date | undefined, args: CliArgs): Promise<number> {
  const [{ NestFactory }, { AppModule }, { BillingRun }, { JobQueue }] = await Promise.all([
    import('@nestjs/core'),
    import('./app.module'),
    import('./billing-runs/runs/billing-run'),
    import('./core/jobs/job-queue'),
  ]);
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    logger: ['error', 'warn'],
  });
  try {
    const clock = app.get(Clock);
    // The run happens as of that moment: what it writes is stamped with it too.
    if (asOf) clock.follow(asOf);
    const { worker } = args;
    // A worker of `--workers` reports to the command that started it, which shows them all as one.
    const toParent = process.send?.bind(process);
    const progress =
      worker && toParent
        ? new WorkerReporter((message, sent) => toParent(message, undefined, undefined, () => sent?.()))
        : new RunProgress(process.stdout, args.dryRun);
    const summary = await app.get(BillingRun).run(clock.now(), {
      dryRun: args.dryRun,
      listener: progress,
      worker,
      waitMs: WAIT_FOR_OTHER_RUN_MS,
    });
    // Webhook deliveries the run queued in-process go out before it ends; on Redis the workers send them.
    if (config.redisUrl === undefined) await app.get(JobQueue).drain();
    await progress.finish(summary);
    return summary.failures.length > 0 ? 1 : 0;
  } finally {
    await app.close();
  }
}

/**
 * The run in `args.workers` processes (this command again, each with `--worker i/n` and the
 * same moment; never a dry run, refused before): one progress line and one summary for all.
 */
async function billInWorkers(asOf: Date, args: CliArgs): Promise<number> {
  const progress = new RunProgress(process.stdout, false);
  const { summary, lostWorkers } = await runInWorkers(
    asOf,
    args.workers,
    (index) => ['--as-of', asOf.toISOString(), '--worker', `${index + 1}/${args.workers}`],
    progress,
  );
  progress.finish(summary);
  for (const lost of lostWorkers) process.stderr.write(`${lost}\n`);
  return summary.failures.length > 0 || lostWorkers.length > 0 ? 1 : 0;
}

function parseArgs(argv: string[]): CliArgs | string {
  const args: CliArgs = { dryRun: false, workers: 1 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dry-run') args.dryRun = true;
    else if (arg === '--as-of' && argv[i + 1] !== undefined) args.asOf = argv[++i];
    else if (arg.startsWith('--as-of=')) args.asOf = arg.slice('--as-of='.length);
    else if (arg === '--workers' && argv[i + 1] !== undefined) {
      const workers = Number(argv[++i]);
      if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
        return `--workers: "${argv[i]}" is not a whole number from 1 to ${MAX_WORKERS}`;
      }
      args.workers = workers;
    } else if (arg === '--worker' && argv[i + 1] !== undefined) {
      const [index, count] = argv[++i].split('/').map(Number);
      if (!(Number.isInteger(index) && Number.isInteger(count) && index >= 1 && index <= count)) {
        return `--worker: "${argv[i]}" is not i/n`;
      }
      args.worker = { index: index - 1, count };
    } else if (arg === '--help' || arg === '-h') return 'help';
    else return `Unknown argument: ${arg}`;
  }
  return args;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
