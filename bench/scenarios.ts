import { STATES } from './seed-rows';

/** One request to send: a path (with query) and, for writes, a JSON body. */
export interface BenchRequest {
  path: string;
  body?: string;
}

/** A benchmark scenario: the same request stream is sent to the server and to the baseline. */
export interface Scenario<K extends string = string> {
  /** Short name, e.g. for `BENCH_SCENARIOS`. */
  key: K;
  name: string;
  method: 'GET' | 'POST';
  /** The status every answer must have. */
  expectedStatus: number;
  /** Builds the next request (called once per request, so ids and keys vary). */
  next(): BenchRequest;
  /** Checks one decoded answer during the smoke test; returns a problem or null. */
  check(envelope: { response?: unknown }): string | null;
  /** Check every answer under load too, counting failures as non-2xx (a 2xx can hide refused work). */
  checkEveryAnswer?: boolean;
}

export const SCENARIO_KEYS = ['read', 'list', 'create'] as const;
export type ScenarioKey = (typeof SCENARIO_KEYS)[number];

const PATH = '/api/v3/customer';

function randomOf<T>(values: readonly T[]): T {
  return values[Math.floor(Math.random() * values.length)];
}

function randomId(customers: number): number {
  return 1 + Math.floor(Math.random() * customers);
}

/** The scenarios named in `only` (all three by default), in their usual order. */
export function scenarios(customers: number, only: readonly ScenarioKey[] = SCENARIO_KEYS): Scenario<ScenarioKey>[] {
  let created = 0;
  const runTag = Date.now().toString(36);
  const all: Scenario<ScenarioKey>[] = [
    {
      key: 'read',
      name: 'GET /customer/<id>',
      method: 'GET',
      expectedStatus: 200,
      next: () => ({ path: `${PATH}/${randomId(customers)}` }),
      check: (e) =>
        typeof e.response === 'object' && e.response !== null && 'customer_id' in e.response
          ? null
          : 'no customer in the response',
    },
    {
      key: 'list',
      name: 'GET /customer?where=bill_state',
      method: 'GET',
      expectedStatus: 200,
      next: () => ({ path: `${PATH}?where=bill_state:EQUALS:${randomOf(STATES)}&limit=10` }),
      check: (e) => {
        // Every state holds at least customers / 50 rows, so a full page unless the data set is tiny.
        const least = Math.min(10, Math.floor(customers / STATES.length));
        return Array.isArray(e.response) && e.response.length >= least && e.response.length <= 10
          ? null
          : `expected a page of ${least} to 10 customers`;
      },
    },
    {
      key: 'create',
      name: 'POST /customer',
      method: 'POST',
      expectedStatus: 201,
      next: () => {
        created += 1;
        const body = {
          company: `Bench Co ${created}`,
          bill_state: randomOf(STATES),
          external_key: `bench-${runTag}-${created}`,
        };
        return { path: PATH, body: JSON.stringify(body) };
      },
      check: (e) =>
        typeof e.response === 'object' && e.response !== null && 'id' in e.response ? null : 'no id in the response',
    },
  ];
  return all.filter((scenario) => only.includes(scenario.key));
}

export const USAGE_SCENARIO_KEYS = ['bulk', 'single'] as const;
export type UsageScenarioKey = (typeof USAGE_SCENARIO_KEYS)[number];

const USAGE_PATH = '/api/v3/usage';

/**
 * `POST /usage?action=bulk` of `bulkSize` records, and `POST /usage` of one: each record
 * names a random metered line of `lineIds` by `line_item_id` and carries a new
 * `external_key` (idempotent ingestion, as a careful client sends it).
 */
export function usageScenarios(lineIds: readonly number[], bulkSize: number): Scenario<UsageScenarioKey>[] {
  const runTag = Date.now().toString(36);
  let sent = 0;
  const record = (): Record<string, unknown> => {
    sent += 1;
    return {
      line_item_id: randomOf(lineIds),
      usage_value: 1 + (sent % 100),
      type: 'add',
      external_key: `bench-${runTag}-${sent}`,
    };
  };
  return [
    {
      key: 'bulk',
      name: `POST /usage?action=bulk (${bulkSize} records)`,
      method: 'POST',
      expectedStatus: 200,
      next: () => ({
        path: `${USAGE_PATH}?action=bulk`,
        body: JSON.stringify(Array.from({ length: bulkSize }, record)),
      }),
      check: (e) => bulkProblem(e.response, bulkSize),
      checkEveryAnswer: true,
    },
    {
      key: 'single',
      name: 'POST /usage',
      method: 'POST',
      expectedStatus: 201,
      next: () => ({ path: USAGE_PATH, body: JSON.stringify(record()) }),
      check: (e) =>
        typeof (e.response as { id?: unknown } | undefined)?.id === 'number' ? null : 'no id in the response',
    },
  ];
}

/** A bulk answer must hold one 201 entry with an id per record sent; otherwise what is wrong. */
export function bulkProblem(response: unknown, records: number): string | null {
  if (!Array.isArray(response)) return 'the response is not an array of entries';
  if (response.length !== records) return `${response.length} entries for ${records} records`;
  const refused = response.filter(
    (entry: { code?: unknown; response?: { id?: unknown } }) =>
      entry?.code !== 201 || typeof entry.response?.id !== 'number',
  ).length;
  return refused === 0 ? null : `${refused} of ${records} records not recorded`;
}
