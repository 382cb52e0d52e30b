/**
 * `/_bulk` imports, two builds paired on one host: BENCH_BULK_CUSTOMERS customers (20,000)
 * created through `POST /api/v3/_bulk`, 25 entries a request, 4 requests in flight, into an
 * empty database, timed on the build under test (dist/main.js) and on a baseline build
 * (BENCH_BULK_BASE_SCRIPT, by default e919495's at /tmp/e919495/dist/main.js), back to back,
 * on each database of BENCH_BULK_DBS (`sqlite,mysql`), for BENCH_ROUNDS rounds whose order
 * alternates. See bench/README.md "Bulk import".
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { readOptions, BenchDbType } from './options';
import { basicAuthorization, cleanUp, fail, log, prepareRun, SERVER_SCRIPT, startServer } from './harness';

const CUSTOMERS = Number(process.env.BENCH_BULK_CUSTOMERS ?? 20_000);
const ENTRIES = 25;
const IN_FLIGHT = 4;
const BASE_SCRIPT = process.env.BENCH_BULK_BASE_SCRIPT ?? '/tmp/e919495/dist/main.js';
const STATES = ['AL', 'AK', 'AZ', 'CA', 'CO', 'MN', 'NY', 'TX', 'WA', 'WI'];

interface Timing {
  build: 'current' | 'baseline';
  seconds: number;
  peakRssMb: number | null;
}

async function main(): Promise<void> {
  if (!existsSync(BASE_SCRIPT))
    throw new Error(`${BASE_SCRIPT} is missing: build the baseline first (bench/README.md)`);
  const rounds = readOptions().rounds;
  const dbs = (process.env.BENCH_BULK_DBS ?? 'sqlite,mysql').split(',') as BenchDbType[];
  const lines: string[] = [];
  for (const db of dbs) {
    const timings: Timing[] = [];
    for (let round = 0; round < rounds; round++) {
      const order: Array<Timing['build']> = round % 2 === 0 ? ['baseline', 'current'] : ['current', 'baseline'];
      for (const build of order) timings.push(await importOnce(db, build));
    }
    const median = (build: Timing['build']): number =>
      medianOf(timings.filter((t) => t.build === build).map((t) => t.seconds));
    const rss = (build: Timing['build']): string =>
      timings
        .filter((t) => t.build === build)
        .map((t) => (t.peakRssMb === null ? '?' : String(t.peakRssMb)))
        .join('/');
    const ratios = pairRatios(timings);
    lines.push(
      `| ${db} | ${median('baseline').toFixed(1)} | ${median('current').toFixed(1)} | ${ratios.map((r) => r.toFixed(2)).join(', ')} | ${rss('baseline')} | ${rss('current')} |`,
    );
  }
  process.stdout.write(
    `\nDate: ${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}, load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  process.stdout.write(
    `${CUSTOMERS.toLocaleString('en-US')} customers through /_bulk, ${ENTRIES} entries a request, ${IN_FLIGHT} in flight; baseline ${BASE_SCRIPT}\n\n`,
  );
  process.stdout.write(
    '| database | baseline s (median) | current s (median) | speed-up per round (baseline ÷ current) | baseline peak RSS MB | current peak RSS MB |\n|---|---:|---:|---|---|---|\n',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Baseline seconds ÷ current seconds, per round (each round measured both back to back). */
function pairRatios(timings: Timing[]): number[] {
  const ratios: number[] = [];
  for (let at = 0; at + 1 < timings.length; at += 2) {
    const pair = timings.slice(at, at + 2);
    const base = pair.find((t) => t.build === 'baseline');
    const current = pair.find((t) => t.build === 'current');
    if (base && current) ratios.push(base.seconds / current.seconds);
  }
  return ratios;
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A fresh database and server of `build`, then the timed import; the server is stopped after. */
async function importOnce(db: BenchDbType, build: Timing['build']): Promise<Timing> {
  const options = { ...readOptions(), db };
  const { workDir, database, password } = prepareRun(options, 'bulk-bench-');
  try {
    await database.create();
    const server = await startServer(
      database,
      password,
      options.serverNodeArgs,
      build === 'current' ? SERVER_SCRIPT : BASE_SCRIPT,
    );
    try {
      const authorization = basicAuthorization(password);
      log(`${db} ${build}: importing ${CUSTOMERS} customers`);
      const started = performance.now();
      await importCustomers(server.url, authorization);
      const seconds = (performance.now() - started) / 1000;
      log(`  ${seconds.toFixed(1)} s`);
      const peak = server.peakRssBytes();
      return { build, seconds, peakRssMb: peak === null ? null : Math.round(peak / 1024 / 1024) };
    } finally {
      await server.stop();
    }
  } finally {
    await cleanUp(options, database, workDir);
  }
}

/** Every request's entries must each answer 201; anything else stops the run. */
async function importCustomers(baseUrl: string, authorization: string): Promise<void> {
  const requests = Math.ceil(CUSTOMERS / ENTRIES);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests) {
      const at = next++;
      const entries = Array.from({ length: Math.min(ENTRIES, CUSTOMERS - at * ENTRIES) }, (_, i) => {
        const n = at * ENTRIES + i + 1;
        return {
          request_method: 'POST',
          uri: '/api/v3/customer',
          payload: { company: `Company ${n}`, external_key: `bulk-${n}`, bill_state: STATES[n % STATES.length] },
        };
      });
      const response = await fetch(`${baseUrl}/api/v3/_bulk`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(entries),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`_bulk answered ${response.status}: ${text.slice(0, 300)}`);
      const answers = (JSON.parse(text) as { response: { _bulk: Array<{ code: number }> } }).response._bulk;
      const bad = answers.find((a) => a.code !== 201);
      if (answers.length !== entries.length || bad)
        throw new Error(`an entry failed: ${JSON.stringify(bad ?? answers.length)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

main().catch(fail);
