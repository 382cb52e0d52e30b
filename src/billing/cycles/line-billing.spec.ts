import { DateTime } from 'luxon';
import { billedPeriod, billsSetup, hasEnded, hasExpired, isInTrial, LineHistory } from './line-billing';

const ZONE = 'America/Chicago';
const at = (local: string): Date => DateTime.fromISO(local, { zone: ZONE }).toJSDate();
const local = (d: Date): string => DateTime.fromJSDate(d, { zone: ZONE }).toFormat('yyyy-MM-dd');
const anchor = at('2024-01-31T09:00');

const line = (over: Partial<LineHistory>): LineHistory => ({
  subscribed: anchor,
  trialDays: 0,
  trialRecurs: null,
  expireRecurs: null,
  invoicesBilled: 0,
  ...over,
});

describe('line billing rules', () => {
  it('bills recurring lines in advance and usage lines in arrears', () => {
    const recurring = billedPeriod(anchor, 'mon', 1, 'recurring', ZONE)!;
    expect([local(recurring.start), local(recurring.end)]).toEqual(['2024-02-29', '2024-03-31']);
    const usage = billedPeriod(anchor, 'mon', 1, 'usage', ZONE)!;
    expect([local(usage.start), local(usage.end)]).toEqual(['2024-01-31', '2024-02-29']);
    expect(billedPeriod(anchor, 'mon', 0, 'usage', ZONE)).toBeNull();
  });

  it('keeps a line free while its cycle starts inside trial_days', () => {
    const trial = line({ trialDays: 30 });
    expect(isInTrial(trial, at('2024-01-31T09:00'))).toBe(true);
    expect(isInTrial(trial, at('2024-02-29T09:00'))).toBe(true); // day 29 of 30
    expect(isInTrial(trial, at('2024-03-01T09:00'))).toBe(false); // day 30: the trial is over
    expect(isInTrial(line({}), anchor)).toBe(false);
  });

  it('keeps the first trial_recurs invoices free', () => {
    expect(isInTrial(line({ trialRecurs: 2, invoicesBilled: 1 }), at('2025-01-01T00:00'))).toBe(true);
    expect(isInTrial(line({ trialRecurs: 2, invoicesBilled: 2 }), at('2025-01-01T00:00'))).toBe(false);
  });

  it('bills setup once, on the first invoice', () => {
    expect(billsSetup(line({ invoicesBilled: 0 }))).toBe(true);
    expect(billsSetup(line({ invoicesBilled: 1 }))).toBe(false);
  });

  it('expires a line after expire_recurs invoices', () => {
    expect(hasExpired(line({ expireRecurs: 3, invoicesBilled: 2 }))).toBe(false);
    expect(hasExpired(line({ expireRecurs: 3, invoicesBilled: 3 }))).toBe(true);
    expect(hasExpired(line({ expireRecurs: null, invoicesBilled: 99 }))).toBe(false);
  });

  it('ends a line when its expire_datetime has passed, or without one at its expire_recurs', () => {
    const now = at('2024-03-01T09:00');
    // An expiry date decides alone: passed or not, whatever was billed.
    expect(hasEnded(line({ expireRecurs: 2, invoicesBilled: 2 }), at('2024-03-02T00:00'), now)).toBe(false);
    expect(hasEnded(line({}), at('2024-03-01T09:00'), now)).toBe(true);
    expect(hasEnded(line({ expireRecurs: 2, invoicesBilled: 2 }), null, now)).toBe(true);
    expect(hasEnded(line({ expireRecurs: 2, invoicesBilled: 1 }), null, now)).toBe(false);
    expect(hasEnded(line({}), null, now)).toBe(false);
  });
});
