import { Measurement } from './load';
import { combineRounds, median, recordsTable, resultsTable } from './report';

function m(reqPerSec: number, p99Ms: number, non2xx = 0): Measurement {
  return { reqPerSec, p50Ms: p99Ms / 2, p99Ms, non2xx, errors: 0, completed: reqPerSec * 5 };
}

describe('bench report', () => {
  it('median takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('combines rounds into medians per target and the median of the per-round ratios', () => {
    // Round 2 was disturbed for both targets: its ratio still counts, its req/s do not decide.
    const result = combineRounds('GET x', [
      { server: m(1000, 20), baseline: m(2000, 10) },
      { server: m(400, 90, 2), baseline: m(500, 40) },
      { server: m(1100, 22), baseline: m(2000, 11) },
    ]);
    expect(result.server.reqPerSec).toBe(1000);
    expect(result.baseline.reqPerSec).toBe(2000);
    expect(result.ratio).toBeCloseTo(0.55);
    expect(result.server.p99Ms).toBe(22);
    expect(result.server.non2xx).toBe(2);
    expect(result.server.completed).toBe(12500);
    expect(result.rounds).toBe(3);
  });

  it('prints the ratio and which aims hold', () => {
    const met = combineRounds('GET met', [{ server: m(1000, 20), baseline: m(1500, 10) }]);
    const slow = combineRounds('GET slow', [{ server: m(1000, 30), baseline: m(1500, 10) }]);
    const behind = combineRounds('GET behind', [{ server: m(500, 20), baseline: m(1500, 10) }]);
    const neither = combineRounds('GET neither', [{ server: m(500, 30), baseline: m(1500, 10) }]);
    const table = resultsTable([met, slow, behind, neither]).split('\n');
    expect(table[2]).toContain('| 0.67 |');
    expect(table[2]).toMatch(/\| met \|$/);
    expect(table[3]).toMatch(/\| ratio met, p99 NOT \|$/);
    expect(table[4]).toMatch(/\| p99 met, ratio NOT \|$/);
    expect(table[5]).toMatch(/\| NOT met \|$/);
  });

  it('prints records per second, the ratio, and whether the target is reached', () => {
    const bulk = combineRounds('POST bulk', [{ server: m(12, 400), baseline: m(40, 100) }]);
    const single = combineRounds('POST one', [{ server: m(500, 90), baseline: m(800, 40, 3) }]);
    const table = recordsTable([
      { result: bulk, recordsPerRequest: 1000, targetPerSec: 10_000 },
      { result: single, recordsPerRequest: 1, targetPerSec: 2_000 },
    ]).split('\n');
    expect(table).toHaveLength(4);
    expect(table[2]).toBe('| POST bulk | 12,000 | 40,000 | 0.30 | 200 / 400 | 50 / 100 | 0 / 0 | 10,000 | met |');
    expect(table[3]).toBe('| POST one | 500 | 800 | 0.63 | 45 / 90 | 20 / 40 | 0 / 3 | 2,000 | NOT met (25% of it) |');
  });

  it('refuses a scenario without rounds', () => {
    expect(() => combineRounds('GET none', [])).toThrow('no rounds');
  });
});
