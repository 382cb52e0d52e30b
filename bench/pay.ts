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
import { join } from 'node:path';
import { benchDatabase } from './bench-database';
import { ChildServer } from './child-server';
import { basicAuthorization, SERVER_SCRIPT, startServer } from './harness';
import { LoadSettings, measure, smokeTest, warmUp } from './load';
import { readOptions } from './options';
import { Scenario } from './scenarios';

async function main(): Promise<void> {
  const options = readOptions({ BENCH_CONNECTIONS: '16', ...process.env });
  const script = SERVER_SCRIPT;
  const workDir = mkdtempSync(join(tmpdir(), 'billing-bench-pay-'));
  const database = benchDatabase(options, workDir);
  const password = randomBytes(18).toString('base64url');
  const authorization = basicAuthorization(password);
  let server: ChildServer | null = null;
  try {
    await database.create();
    server = await startServer(database, password, [], script);
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
    key: 'pay',
    name: 'POST /transaction?action=pay',
    method: 'POST',
    expectedStatus: 200,
    next: () => ({ path: '/api/v3/transaction?action=pay', body }),
    check: (envelope) =>
      typeof (envelope.response as { id?: unknown } | undefined)?.id === 'number' ? null : 'no transaction id',
  };
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
