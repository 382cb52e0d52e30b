import autocannon from 'autocannon';
import { Scenario } from './scenarios';

export interface LoadSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  authorization: string;
}

export interface Measurement {
  /** Mean completed requests per second. */
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers whose status was not 2xx, and (scenarios with `checkEveryAnswer`) answers whose body failed the check. */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  completed: number;
}

/** Sends one request of the scenario with fetch and checks status and body before any load. */
export async function smokeTest(baseUrl: string, scenario: Scenario, authorization: string): Promise<void> {
  const request = scenario.next();
  const response = await fetch(baseUrl + request.path, {
    method: scenario.method,
    headers: headers(authorization, scenario.method === 'POST'),
    body: request.body,
  });
  const text = await response.text();
  const problem =
    response.status !== scenario.expectedStatus
      ? `status ${response.status} (expected ${scenario.expectedStatus})`
      : scenario.check(JSON.parse(text) as { response?: unknown });
  if (problem !== null) {
    throw new Error(`Smoke test of "${scenario.name}" on ${baseUrl} failed: ${problem}. Body: ${text.slice(0, 500)}`);
  }
}

/** Load whose figures are thrown away (JIT, caches, connection pools). */
export async function warmUp(baseUrl: string, scenario: Scenario, settings: LoadSettings): Promise<void> {
  if (settings.warmupSeconds > 0) await runLoad(baseUrl, scenario, settings, settings.warmupSeconds);
}

/** One measured run (the caller warms up first). */
export async function measure(baseUrl: string, scenario: Scenario, settings: LoadSettings): Promise<Measurement> {
  let failedChecks = 0;
  const result = await runLoad(baseUrl, scenario, settings, settings.seconds, () => failedChecks++);
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx + failedChecks,
    errors: result.errors,
    completed: result.requests.total,
  };
}

function runLoad(
  baseUrl: string,
  scenario: Scenario,
  settings: LoadSettings,
  seconds: number,
  onFailedCheck: () => void = () => undefined,
): Promise<autocannon.Result> {
  // A 2xx whose body says the work was not done (a bulk's refused records) is a failure too.
  const onResponse = scenario.checkEveryAnswer
    ? (status: number, body: string): void => {
        if (status === scenario.expectedStatus && scenario.check(JSON.parse(body) as { response?: unknown }) !== null) {
          onFailedCheck();
        }
      }
    : undefined;
  return autocannon({
    url: baseUrl,
    connections: settings.connections,
    pipelining: 1,
    duration: seconds,
    method: scenario.method,
    headers: headers(settings.authorization, scenario.method === 'POST'),
    requests: [
      {
        setupRequest: (request: autocannon.Request): autocannon.Request => ({ ...request, ...scenario.next() }),
        onResponse,
      },
    ],
  });
}

function headers(authorization: string, withBody: boolean): Record<string, string> {
  const common = { authorization, accept: 'application/json' };
  return withBody ? { ...common, 'content-type': 'application/json' } : common;
}
