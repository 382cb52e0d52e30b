/**
 * Card-pay throughput: `POST /transaction?action=pay` (a new test card, amount 1.00, no
 * invoice) against the real server, one customer, BENCH_CONNECTIONS connections (16 by
 * default). No baseline: it measures what payment safety (an attempt committed before the
 * gateway call, the transaction after) costs, build against build. See bench/README.md.
 *
 *   BENCH_SERVER_SCRIPT=<path to an older dist/main.js> npm run bench:pay
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchDatabase, BenchDatabase } from './bench-database';
import { ChildServer, freePort, startChildServer } from './child-server';
import { LoadSettings, measure, smokeTest, warmUp } from './load';
import { readOptions } from './options';
import { Scenario } from './scenarios';

const ROOT = resolve(__dirname, '..');
const USERNAME = 'bench';

async function main(): Promise<void> {
  const options = readOptions({ BENCH_CONNECTIONS: '16', ...process.env });
  const script = resolve(process.env.BENCH_SERVER_SCRIPT ?? join(ROOT, 'dist', 'main.js'));
  const workDir = mkdtempSync(join(tmpdir(), 'billing-bench-pay-'));
  const database = benchDatabase(options, workDir);
  const password = randomBytes(18).toString('base64url');
  const authorization = `Basic ${Buffer.from(`${USERNAME}:${password}`).toString('base64')}`;
  let server: ChildServer | null = null;
  try {
    await database.create();
    server = await startServer(script, database, password);
    const customer = await fetch(`${server.url}/api/v3/customer`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ company: 'Bench payer' }),
    });
    const customerId = ((await customer.json()) as { response: { id: number } }).response.id;
    const scenario = payScenario(customerId);
    const settings: LoadSettings = {
      connections: options.connections,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      authorization,
    };
    await smokeTest(server.url, scenario, authorization);
    await warmUp(server.url, scenario, settings);
    const rounds = [];
    for (let round = 0; round < options.rounds; round++) rounds.push(await measure(server.url, scenario, settings));
    const sorted = [...rounds].sort((a, b) => a.reqPerSec - b.reqPerSec);
    const median = sorted[Math.floor(sorted.length / 2)];
    const failed = rounds.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
    process.stdout.write(
      `${await database.describe()}, ${script}: card pay at ${options.connections} connections: ` +
        `${Math.round(median.reqPerSec)} req/s (median of ${options.rounds} x ${options.seconds} s; rounds ` +
        `${rounds.map((r) => Math.round(r.reqPerSec)).join(', ')}), p50 ${median.p50Ms} ms, p99 ${median.p99Ms} ms, ` +
        `failed ${failed}\n`,
    );
    if (failed > 0) process.exitCode = 1;
  } finally {
    await server?.stop();
    await database.dispose();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Not one of run.ts's customer scenarios (no baseline does a pay); only the load helpers are shared. */
function payScenario(customerId: number): Scenario {
  const body = JSON.stringify({
    customer_id: customerId,
    amount: '1.00',
    paymethods: [{ number: '4242424242424242', expdate_year: 2030, expdate_month: 1, cvv: '123' }],
  });
  return {
    key: 'create',
    name: 'POST /transaction?action=pay',
    method: 'POST',
    expectedStatus: 200,
    next: () => ({ path: '/api/v3/transaction?action=pay', body }),
    check: (envelope) =>
      typeof (envelope.response as { id?: unknown } | undefined)?.id === 'number' ? null : 'no transaction id',
  };
}

async function startServer(script: string, database: BenchDatabase, password: string): Promise<ChildServer> {
  const port = await freePort();
  return startChildServer({
    name: 'server',
    nodeArgs: [script],
    port,
    cwd: ROOT,
    env: {
      ...database.env,
      // An older build copied outside the checkout still finds the packages.
      NODE_PATH: join(ROOT, 'node_modules'),
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      API_USERNAME: USERNAME,
      API_PASSWORD: password,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      BILLING_CRON: '',
      REDIS_URL: '',
      SMTP_URL: '',
      TEST_CLOCK: 'false',
    },
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
