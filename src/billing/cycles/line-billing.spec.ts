import { DateTime } from 'luxon';
import { cycleNumber } from './cycle-calendar';
import {
  billedPeriod,
  billsPrice,
  billsSetup,
  hasEnded,
  hasExpired,
  isInTrial,
  LineHistory,
  usagePeriod,
} from './line-billing';

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

  it('bills a one-time price (tierset paycycle one) on the first invoice only, others every time', () => {
    expect(billsPrice(line({ invoicesBilled: 0 }), 'one')).toBe(true);
    expect(billsPrice(line({ invoicesBilled: 1 }), 'one')).toBe(false);
    expect(billsPrice(line({ invoicesBilled: 5 }), 'evy')).toBe(true);
    expect(billsPrice(line({ invoicesBilled: 5 }), undefined)).toBe(true);
  });

  it('counts usage over account-zone days: from the start date up to the next start date', () => {
    const iso = (d: Date) => DateTime.fromJSDate(d, { zone: ZONE }).toISO();
    // Cycle 0 of Jan 31 09:00: Jan 31 09:00 .. Feb 29 09:00; its usage: Jan 31 00:00 .. Feb 29 00:00.
    const period = usagePeriod(cycleNumber(anchor, 'mon', 0, ZONE), ZONE);
    expect([iso(period.from), iso(period.to)]).toEqual([
      '2024-01-31T00:00:00.000-06:00',
      '2024-02-29T00:00:00.000-06:00',
    ]);
    // A line subscribed on Feb 10 at 15:00 counts from Feb 10 00:00.
    const later = usagePeriod(cycleNumber(anchor, 'mon', 0, ZONE), ZONE, at('2024-02-10T15:00'));
    expect(iso(later.from)).toBe('2024-02-10T00:00:00.000-06:00');
    // Across the DST change (Mar 10): Feb 29 00:00 CST .. Mar 31 00:00 CDT.
    const march = usagePeriod(cycleNumber(anchor, 'mon', 1, ZONE), ZONE);
    expect([iso(march.from), iso(march.to)]).toEqual([
      '2024-02-29T00:00:00.000-06:00',
      '2024-03-31T00:00:00.000-05:00',
    ]);
  });
});
