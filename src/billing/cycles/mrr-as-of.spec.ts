import Decimal from 'decimal.js';
import { mrrAsOf, MrrLine, MrrSubscription, mrrMoments } from './mrr-as-of';

const at = (iso: string) => new Date(iso);
const line = (price: string, more: Partial<MrrLine> = {}): MrrLine => ({
  recurring: true,
  isDiscount: false,
  price: () => new Decimal(price),
  subscribe: at('2026-01-01T00:00:00Z'),
  cancel: null,
  expire: null,
  trialEnd: null,
  inTrialInvoices: false,
  expiredByCount: false,
  ...more,
});
const sub = (lines: MrrLine[], more: Partial<MrrSubscription> = {}): MrrSubscription => ({
  paycycle: 'mon',
  start: at('2026-01-01T00:00:00Z'),
  cancelAt: null,
  expired: false,
  suspendFrom: null,
  suspendTo: null,
  lines,
  ...more,
});
const mrr = (s: MrrSubscription, when = '2026-03-01T00:00:00Z') => mrrAsOf(s, at(when)).toFixed(2);

describe('mrrAsOf (DESIGN §6 "MRR/ARR")', () => {
  it('converts a cycle price to a month: annual a twelfth, quarterly a third, weekly × 30.4375 / 7', () => {
    expect(mrr(sub([line('1200')], { paycycle: 'yrl' }))).toBe('100.00');
    expect(mrr(sub([line('100')], { paycycle: 'qtr' }))).toBe('33.33'); // 100 / 3 = 33.333…
    expect(mrr(sub([line('70')], { paycycle: '1wk' }))).toBe('304.38'); // 70 × 30.4375 / 7 = 304.375
  });

  it('counts metered and one-time lines zero', () => {
    expect(mrr(sub([line('100'), line('999', { recurring: false })]))).toBe('100.00');
  });

  it('counts a line in trial zero until its trial ends, and one free by trial_recurs zero', () => {
    const trial = sub([line('100', { trialEnd: at('2026-03-15T00:00:00Z') })]);
    expect(mrr(trial, '2026-03-14T23:59:59Z')).toBe('0.00');
    expect(mrr(trial, '2026-03-15T00:00:00Z')).toBe('100.00');
    expect(mrr(sub([line('100', { inTrialInvoices: true })]))).toBe('0.00');
  });

  it('counts a suspended subscription zero while suspended, and nothing before its start or after its cancellation', () => {
    const suspended = sub([line('100')], {
      suspendFrom: at('2026-02-10T00:00:00Z'),
      suspendTo: at('2026-04-10T00:00:00Z'),
    });
    expect(mrr(suspended, '2026-02-09T00:00:00Z')).toBe('100.00');
    expect(mrr(suspended, '2026-03-01T00:00:00Z')).toBe('0.00');
    expect(mrr(suspended, '2026-04-10T00:00:00Z')).toBe('100.00');
    expect(mrr(sub([line('100')]), '2025-12-31T00:00:00Z')).toBe('0.00');
    const cancelled = sub([line('100')], { cancelAt: at('2026-05-01T00:00:00Z') });
    expect(mrr(cancelled, '2026-04-30T00:00:00Z')).toBe('100.00');
    expect(mrr(cancelled, '2026-05-01T00:00:00Z')).toBe('0.00');
  });

  it('takes a percent discount of the other counted lines, and a replaced line only until it was cancelled', () => {
    const discount = line('0', { isDiscount: true, price: (others) => others.times('0.1').negated() });
    expect(mrr(sub([line('100'), line('50'), discount]))).toBe('135.00'); // 150 − 10 %
    const replaced = line('100', { cancel: at('2026-02-10T00:00:00Z') });
    const added = line('250', { subscribe: at('2026-02-10T00:00:00Z') });
    expect(mrr(sub([replaced, added]), '2026-02-09T00:00:00Z')).toBe('100.00');
    expect(mrr(sub([replaced, added]), '2026-02-10T00:00:00Z')).toBe('250.00');
  });

  it('lists the moments time alone can change it at, once each, in order', () => {
    const s = sub([line('100', { trialEnd: at('2026-02-01T00:00:00Z') })], {
      suspendFrom: at('2026-03-01T00:00:00Z'),
    });
    expect(mrrMoments(s).map((d) => d.toISOString())).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
  });
});
