import { Measurement } from './load';

export interface ScenarioResult {
  scenario: string;
  server: Measurement;
  baseline: Measurement;
}

/** The aims: at least half the baseline's throughput, p99 under 25 ms. */
export const AIM_RATIO = 0.5;
export const AIM_P99_MS = 25;

export function ratioOf(result: ScenarioResult): number {
  return result.baseline.reqPerSec > 0 ? result.server.reqPerSec / result.baseline.reqPerSec : 0;
}

export function meetsAims(result: ScenarioResult): boolean {
  return ratioOf(result) >= AIM_RATIO && result.server.p99Ms < AIM_P99_MS;
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
    ratioOf(r).toFixed(2),
    `${r.server.p50Ms} / ${r.server.p99Ms}`,
    `${r.baseline.p50Ms} / ${r.baseline.p99Ms}`,
    `${failures(r.server)} / ${failures(r.baseline)}`,
    meetsAims(r) ? 'met' : 'NOT met',
  ]);
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
