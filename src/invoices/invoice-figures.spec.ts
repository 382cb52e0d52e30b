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

  it('balance = total - payments - credits - writeoffs + refunds', () => {
    const f = invoiceFigures(
      facts(),
      { ...NOTHING_APPLIED, payments: d('200'), credits: d('50'), writeoffs: d('4.82'), refunds: d('10') },
      '2026-03-01',
    );
    expect(f.balance.toString()).toBe('70'); // 314.82 - 200 - 50 - 4.82 + 10
    expect(f.applied.toString()).toBe('264.82'); // 200 + 50 + 4.82 + 10
    expect(f.status).toBe('open-unpaid');
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
