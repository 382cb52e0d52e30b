import { dueAction } from './due-action';

const ZONE = 'America/Chicago';
const at = (iso: string) => new Date(iso);

/** A monthly subscription anchored on Jan 31 10:00 (Chicago), next cycle Mar 31. */
function sub(changes: Partial<Parameters<typeof dueAction>[0]> = {}): Parameters<typeof dueAction>[0] {
  return {
    start_datetime: at('2026-01-31T16:00:00Z'),
    paycycle: 'mon',
    next_invoice_datetime: at('2026-03-31T15:00:00Z'),
    package_status_str: 'active',
    cancel_datetime: null,
    holduntil_datetime: null,
    suspendfrom_datetime: null,
    suspendto_datetime: null,
    ...changes,
  };
}

describe('dueAction', () => {
  const asOf = at('2026-04-10T15:00:00Z');

  it('bills the next cycle once it has started, not before', () => {
    expect(dueAction(sub(), asOf, ZONE)).toEqual({ kind: 'bill', cycleStart: at('2026-03-31T15:00:00Z') });
    expect(dueAction(sub(), at('2026-03-31T14:59:59Z'), ZONE)).toEqual({ kind: 'none' });
    expect(dueAction(sub({ next_invoice_datetime: null }), asOf, ZONE)).toEqual({ kind: 'none' });
  });

  it('never bills an expired subscription, nor a cancelled one from its cancel date on', () => {
    expect(dueAction(sub({ package_status_str: 'expired-expired' }), asOf, ZONE).kind).toBe('none');
    const cancelled = { package_status_str: 'canceled-manual' };
    expect(dueAction(sub({ ...cancelled, cancel_datetime: at('2026-03-31T15:00:00Z') }), asOf, ZONE).kind).toBe('none');
    // Cancelled for a later date: the cycles before it are still billed.
    expect(dueAction(sub({ ...cancelled, cancel_datetime: at('2026-04-20T00:00:00Z') }), asOf, ZONE).kind).toBe('bill');
  });

  it('skips a held subscription until its hold ends', () => {
    expect(dueAction(sub({ holduntil_datetime: at('2026-04-15T00:00:00Z') }), asOf, ZONE).kind).toBe('none');
    expect(dueAction(sub({ holduntil_datetime: at('2026-04-01T00:00:00Z') }), asOf, ZONE).kind).toBe('bill');
  });

  it('skips a suspended subscription, then resumes at the first cycle start after the suspension', () => {
    const during = { suspendfrom_datetime: at('2026-03-20T00:00:00Z'), suspendto_datetime: at('2026-04-20T00:00:00Z') };
    expect(dueAction(sub(during), asOf, ZONE).kind).toBe('none');
    expect(dueAction(sub({ suspendfrom_datetime: at('2026-03-20T00:00:00Z') }), asOf, ZONE).kind).toBe('none');
    // Ended: the Mar 31 cycle started inside it and is never billed; Apr 30 is next.
    expect(dueAction(sub(during), at('2026-04-21T00:00:00Z'), ZONE)).toEqual({
      kind: 'resume',
      at: at('2026-04-30T15:00:00Z'),
    });
    // A suspension that starts after the cycle does not touch it.
    const later = { suspendfrom_datetime: at('2026-04-11T00:00:00Z'), suspendto_datetime: at('2026-04-20T00:00:00Z') };
    expect(dueAction(sub(later), asOf, ZONE).kind).toBe('bill');
  });
});
