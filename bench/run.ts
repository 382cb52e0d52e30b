/**
 * HTTP benchmark of the customer endpoints: the real server (dist/main.js) beside a bare
 * Express baseline on the same database, measured in the same run. See bench/README.md.
 */
import { BenchDatabase } from './bench-database';
import {
  basicAuthorization,
  cleanUp,
  fail,
  machineLines,
  reportFailures,
  runScenarios,
  prepareRun,
  startBaseline,
  startServer,
  step,
  Targets,
} from './harness';
import { ChildServer } from './child-server';
import { LoadSettings } from './load';
import { BenchOptions, readOptions } from './options';
import { memoryLine, resultsTable, ScenarioResult } from './report';
import { scenarios } from './scenarios';

async function main(): Promise<void> {
  const options = readOptions();
  const { workDir, database, password } = prepareRun(options, 'billing-bench-');
  const running: ChildServer[] = [];
  try {
    await step('create the database', () => database.create());
    await step('migrate (first server start)', async () => (await startServer(database, password, [])).stop());
    await step(`seed ${options.customers.toLocaleString('en-US')} customers`, () => database.seed(options.customers));
    const targets = await step('start the server and the baseline', async () => {
      const server = await startServer(database, password, options.serverNodeArgs);
      running.push(server);
      const baseline = await startBaseline(database, workDir);
      running.push(baseline);
      return { server, baseline };
    });
    const results = await runCustomerScenarios(targets, options, password);
    const peaks = { server: targets.server.peakRssBytes(), baseline: targets.baseline.peakRssBytes() };
    process.stdout.write(`\n${await header(options, database)}\n\n${resultsTable(results)}\n\n`);
    process.stdout.write(`${memoryLine(peaks.server, peaks.baseline)}\n`);
    reportFailures(results);
  } finally {
    for (const child of running) await child.stop();
    await cleanUp(options, database, workDir);
  }
}

/** Every customer scenario at the same load settings. */
function runCustomerScenarios(targets: Targets, options: BenchOptions, password: string): Promise<ScenarioResult[]> {
  const settings: LoadSettings = {
    connections: options.connections,
    seconds: options.seconds,
    warmupSeconds: options.warmupSeconds,
    authorization: basicAuthorization(password),
  };
  const planned = scenarios(options.customers, options.scenarios).map((scenario) => ({ scenario, settings }));
  return runScenarios(targets, planned, options.rounds);
}

async function header(options: BenchOptions, database: BenchDatabase): Promise<string> {
  return [
    ...(await machineLines(database)),
    `Load: autocannon in the bench process, ${options.connections} connections, pipelining 1; a warm-up round of ${options.warmupSeconds} s per scenario and target, then per scenario and target ${options.warmupSeconds} s warm-up + ${options.rounds} rounds of ${options.seconds} s measured (server and baseline back to back per round; medians reported)`,
    `Data: ${options.customers.toLocaleString('en-US')} seeded customers`,
  ].join('\n');
}

main().catch(fail);
