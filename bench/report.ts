import { Measurement } from './load';

/** One round: the server and the baseline measured back to back. */
export interface RoundPair {
  server: Measurement;
  baseline: Measurement;
}

/** A scenario over every round: per target the median of each figure, failures summed. */
export interface ScenarioResult {
  scenario: string;
  server: Measurement;
  baseline: Measurement;
  /** Median over the rounds of server req/s ÷ baseline req/s of the same round. */
  ratio: number;
  rounds: number;
}

/** The aims: at least half the baseline's throughput, p99 under 25 ms. */
export const AIM_RATIO = 0.5;
export const AIM_P99_MS = 25;

/**
 * Combines the rounds of a scenario. Medians, so that one round disturbed by the shared
 * machine (the load generator, the database server and both targets share its cores)
 * does not decide the figure; the ratio pairs each round's two targets, which ran
 * seconds apart under the same conditions.
 */
export function combineRounds(scenario: string, pairs: RoundPair[]): ScenarioResult {
  if (pairs.length === 0) throw new Error(`combineRounds: no rounds for ${scenario}`);
  return {
    scenario,
    server: combine(pairs.map((p) => p.server)),
    baseline: combine(pairs.map((p) => p.baseline)),
    ratio: median(pairs.map((p) => (p.baseline.reqPerSec > 0 ? p.server.reqPerSec / p.baseline.reqPerSec : 0))),
    rounds: pairs.length,
  };
}

function combine(rounds: Measurement[]): Measurement {
  const sum = (pick: (m: Measurement) => number): number => rounds.reduce((total, m) => total + pick(m), 0);
  return {
    reqPerSec: median(rounds.map((m) => m.reqPerSec)),
    p50Ms: median(rounds.map((m) => m.p50Ms)),
    p99Ms: median(rounds.map((m) => m.p99Ms)),
    non2xx: sum((m) => m.non2xx),
    errors: sum((m) => m.errors),
    completed: sum((m) => m.completed),
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `met`, `NOT met`, or which of the two aims holds. */
export function aimsVerdict(result: ScenarioResult): string {
  const ratio = result.ratio >= AIM_RATIO;
  const p99 = result.server.p99Ms < AIM_P99_MS;
  if (ratio && p99) return 'met';
  if (ratio) return 'ratio met, p99 NOT';
  if (p99) return 'p99 met, ratio NOT';
  return 'NOT met';
}

/** A Markdown table, ready to paste into bench/RESULTS.md. */
export function resultsTable(results: ScenarioResult[]): string {
  const header = [
    'scenario',
    'server req/s',
    'baseline req/s',
    'ratio',
    'server p50 / p99 ms',
    'baseline p50 / p99 ms',
    'non-2xx + errors (server / baseline)',
    'aims',
  ];
  const rows = results.map((r) => [
    r.scenario,
    whole(r.server.reqPerSec),
    whole(r.baseline.reqPerSec),
    r.ratio.toFixed(2),
    `${r.server.p50Ms} / ${r.server.p99Ms}`,
    `${r.baseline.p50Ms} / ${r.baseline.p99Ms}`,
    `${failures(r.server)} / ${failures(r.baseline)}`,
    aimsVerdict(r),
  ]);
  return markdownTable(header, rows);
}

/** A scenario whose requests carry several records each, and the records/s it should reach. */
export interface RecordsResult {
  result: ScenarioResult;
  recordsPerRequest: number;
  targetPerSec: number;
}

/** Records per second from requests per second. */
export function recordsPerSec(m: Measurement, recordsPerRequest: number): number {
  return m.reqPerSec * recordsPerRequest;
}

/** `met` when the server's records/s reach the target, else `NOT met (n% of it)`. */
export function targetVerdict(r: RecordsResult): string {
  const reached = recordsPerSec(r.result.server, r.recordsPerRequest) / r.targetPerSec;
  return reached >= 1 ? 'met' : `NOT met (${Math.round(reached * 100)}% of it)`;
}

/** A Markdown table in records per second (the ratio is the same as in requests), ready for RESULTS.md. */
export function recordsTable(results: RecordsResult[]): string {
  const header = [
    'scenario',
    'server records/s',
    'baseline records/s',
    'ratio',
    'server p50 / p99 ms',
    'baseline p50 / p99 ms',
    'non-2xx + errors (server / baseline)',
    'target records/s',
    'target',
  ];
  const rows = results.map((r) => [
    r.result.scenario,
    whole(recordsPerSec(r.result.server, r.recordsPerRequest)),
    whole(recordsPerSec(r.result.baseline, r.recordsPerRequest)),
    r.result.ratio.toFixed(2),
    `${r.result.server.p50Ms} / ${r.result.server.p99Ms}`,
    `${r.result.baseline.p50Ms} / ${r.result.baseline.p99Ms}`,
    `${failures(r.result.server)} / ${failures(r.result.baseline)}`,
    whole(r.targetPerSec),
    targetVerdict(r),
  ]);
  return markdownTable(header, rows);
}

function markdownTable(header: string[], rows: string[][]): string {
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function memoryLine(serverPeak: number | null, baselinePeak: number | null): string {
  return `Peak RSS (VmHWM) at the end: server ${megabytes(serverPeak)}, baseline ${megabytes(baselinePeak)}`;
}

/** Loud lines for every non-2xx answer or connection error (each must be 0). */
export function failureWarnings(results: ScenarioResult[]): string[] {
  const warnings: string[] = [];
  for (const r of results) {
    for (const [who, m] of [
      ['server', r.server],
      ['baseline', r.baseline],
    ] as const) {
      if (failures(m) > 0) {
        warnings.push(
          `!!! ${r.scenario} on the ${who}: ${m.non2xx} non-2xx answers and ${m.errors} connection errors out of ${m.completed} requests`,
        );
      }
    }
  }
  return warnings;
}

function failures(m: Measurement): number {
  return m.non2xx + m.errors;
}

function whole(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function megabytes(bytes: number | null): string {
  return bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}
