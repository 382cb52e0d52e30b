import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { BillingRun } from './billing-runs/runs/billing-run';
import { RunProgress } from './billing-runs/runs/run-progress';
import { loadConfig, loadDotEnv } from './config/load-config';
import { Clock } from './core/clock/clock';
import { JobQueue } from './core/jobs/job-queue';
import { parseInputDatetime } from './core/time/datetime-input';

const USAGE = `Usage: npm run billing -- [--as-of <datetime>] [--dry-run]
  --as-of    bill every cycle started by then (account zone unless an offset is given; default now)
  --dry-run  print what would be invoiced, write nothing
`;

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
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), {
    logger: ['error', 'warn'],
  });
  try {
    const clock = app.get(Clock);
    // The run happens as of that moment: what it writes is stamped with it too.
    if (asOf) clock.set(asOf);
    const progress = new RunProgress(process.stdout, args.dryRun);
    const summary = await app.get(BillingRun).run(clock.now(), { dryRun: args.dryRun, listener: progress });
    // Webhook deliveries the run queued in-process go out before it ends; on Redis the workers send them.
    if (config.redisUrl === undefined) await app.get(JobQueue).drain();
    progress.finish(summary);
    return summary.failures.length > 0 ? 1 : 0;
  } finally {
    await app.close();
  }
}

function parseArgs(argv: string[]): { asOf?: string; dryRun: boolean } | string {
  const args: { asOf?: string; dryRun: boolean } = { dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--dry-run') args.dryRun = true;
    else if (arg === '--as-of' && argv[i + 1] !== undefined) args.asOf = argv[++i];
    else if (arg.startsWith('--as-of=')) args.asOf = arg.slice('--as-of='.length);
    else if (arg === '--help' || arg === '-h') return 'help';
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
