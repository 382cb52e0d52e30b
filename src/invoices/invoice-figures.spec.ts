import { Money } from 'src/core/money/decimal';
import { NOTHING_APPLIED } from './invoice-extensions';
import { invoiceFigures } from './invoice-figures';

const d = (v: string | number) => new Money(v);
const facts = (over: Partial<Parameters<typeof invoiceFigures>[0]> = {}) => ({
  total: d('314.82'),
  due_date: '2026-03-16',
  void_datetime: null,
  in_collections: false,
  ...over,
});

describe('invoiceFigures (the status machine of DESIGN §6)', () => {
  it('is open-unpaid until the due date, open-overdue after it', () => {
    expect(invoiceFigures(facts(), NOTHING_APPLIED, '2026-03-16')).toMatchObject({
      status: 'open-unpaid',
      is_overdue: false,
      days_overdue: 0,
    });
    const late = invoiceFigures(facts(), NOTHING_APPLIED, '2026-03-20');
    expect(late).toMatchObject({ status: 'open-overdue', is_overdue: true, days_overdue: 4 });
    expect(late.overdue.toString()).toBe('314.82');
  });

  it('applied = payments + credits - refunds; balance = total - applied - writeoffs', () => {
    const f = invoiceFigures(
      facts(),
      { ...NOTHING_APPLIED, payments: d('200'), credits: d('50'), writeoffs: d('4.82'), refunds: d('10') },
      '2026-03-01',
    );
    expect(f.balance.toString()).toBe('70'); // 314.82 - 200 - 50 - 4.82 + 10
    expect(f.applied.toString()).toBe('240'); // 200 + 50 - 10
    // The invariant: 314.82 - 240 - 4.82 = 70.
    expect(f.status).toBe('open-unpaid');
  });

  it('re-opens what a refund gives back (30.00 paid, 30.00 refunded; 30.00 paid, 12.50 refunded)', () => {
    const full = invoiceFigures(
      facts({ total: d('30') }),
      { ...NOTHING_APPLIED, payments: d('30'), refunds: d('30') },
      '2026-03-01',
    );
    expect([full.applied, full.balance].map(String)).toEqual(['0', '30']); // 30 - 30 = 0; 30 - 0 - 0 = 30
    expect(full.status).toBe('open-unpaid');
    const part = invoiceFigures(
      facts({ total: d('30') }),
      { ...NOTHING_APPLIED, payments: d('30'), refunds: d('12.5') },
      '2026-03-01',
    );
    expect([part.applied, part.balance].map(String)).toEqual(['17.5', '12.5']); // 30 - 12.50 = 17.50; 30 - 17.50 = 12.50
  });

  it('is closed-paid at a zero balance, even past due and in collections', () => {
    const paid = { ...NOTHING_APPLIED, payments: d('314.82') };
    expect(invoiceFigures(facts({ in_collections: true }), paid, '2026-04-30')).toMatchObject({
      status: 'closed-paid',
      is_paid: true,
      is_overdue: false,
      days_overdue: 0,
    });
    expect(invoiceFigures(facts({ total: d(0) }), NOTHING_APPLIED, '2026-03-01').status).toBe('closed-paid');
  });

  it('collections wins over overdue while money is due', () => {
    expect(invoiceFigures(facts({ in_collections: true }), NOTHING_APPLIED, '2026-04-30').status).toBe(
      'open-collections',
    );
  });

  it('void has a zero balance and wins over everything', () => {
    const f = invoiceFigures(
      facts({ void_datetime: new Date(0), in_collections: true }),
      NOTHING_APPLIED,
      '2026-09-01',
    );
    expect(f).toMatchObject({ status: 'closed-void', is_void: true, is_overdue: false, days_overdue: 0 });
    expect(f.balance.isZero()).toBe(true);
  });
});
