import Decimal from 'decimal.js';
import { RunProgress } from './run-progress';

function output(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

describe('RunProgress', () => {
  it('logs done/total, rate and time left every 10 s when not on a terminal, and the last one', () => {
    const out = output(false);
    let now = 0;
    const progress = new RunProgress(out, false, () => now);
    progress.started(100);
    now = 5_000;
    progress.progressed(10, 100);
    now = 10_000;
    progress.progressed(20, 100);
    now = 12_000;
    progress.progressed(100, 100);
    expect(out.written).toEqual([
      '100 subscriptions due\n',
      'billing 20/100 (20%), 2.0/s, 40s left\n',
      'billing 100/100 (100%), 8.3/s, 0s left\n',
    ]);
  });

  it('redraws one line on a terminal', () => {
    const out = output(true);
    let now = 0;
    const progress = new RunProgress(out, false, () => now);
    progress.started(4);
    now = 1_000;
    progress.progressed(1, 4);
    now = 1_050;
    progress.progressed(2, 4);
    expect(out.written[1]).toBe('\rbilling 1/4 (25%), 1.0/s, 3s left\x1b[K');
    expect(out.written).toHaveLength(2);
  });

  it('ends with invoices, totals per currency and each failure', () => {
    const out = output(false);
    const progress = new RunProgress(out, false, () => 0);
    progress.finish({
      asOf: new Date('2026-03-01T16:00:00Z'),
      dryRun: true,
      due: 3,
      invoices: 2,
      billed: { USD: new Decimal('20'), EUR: new Decimal('5.5') },
      failures: [{ packageId: 7, reason: 'usage URL: line 9: answered 500' }],
    });
    expect(out.written.join('')).toBe(
      [
        'Billing run as of 2026-03-01T16:00:00.000Z (dry run: nothing written)',
        '  subscriptions due: 3',
        '  invoices: 2',
        '  total billed: 20.00 USD, 5.50 EUR',
        '  failures: 1',
        '  package 7: usage URL: line 9: answered 500',
        '',
      ].join('\n'),
    );
  });
});
