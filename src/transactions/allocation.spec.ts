import { Money } from 'src/core/money/decimal';
import { allocate, OpenInvoice } from './allocation';

const inv = (invoice_id: number, date: string, balance: string): OpenInvoice => ({
  invoice_id,
  date,
  balance: new Money(balance),
});
const shown = (apps: ReturnType<typeof allocate>) => apps.map((a) => [a.invoice_id, a.applied.toFixed(2)]);

describe('allocate', () => {
  const invoices = [inv(1, '2026-01-10', '100.00'), inv(2, '2026-02-10', '50.25'), inv(3, '2026-03-10', '200.00')];

  it('applies listed invoices in order, capped by balance and amount', () => {
    const items = [3, 1].map((invoice_id) => ({ invoice_id, invoice_schedule_id: null, applied: null }));
    expect(shown(allocate(new Money('250'), { kind: 'list', items }, invoices))).toEqual([
      [3, '200.00'],
      [1, '50.00'],
    ]);
  });

  it('applies splits, never over the balance', () => {
    const items = [
      { invoice_id: 1, invoice_schedule_id: null, applied: new Money('30.10') },
      { invoice_id: 2, invoice_schedule_id: null, applied: new Money('60') },
    ];
    expect(shown(allocate(new Money('100'), { kind: 'list', items }, invoices))).toEqual([
      [1, '30.10'],
      [2, '50.25'],
    ]);
  });

  it('oldest first and newest first', () => {
    expect(shown(allocate(new Money('120'), { kind: 'auto', order: 'oldest_first' }, invoices))).toEqual([
      [1, '100.00'],
      [2, '20.00'],
    ]);
    expect(shown(allocate(new Money('220'), { kind: 'auto', order: 'newest_first' }, invoices))).toEqual([
      [3, '200.00'],
      [2, '20.00'],
    ]);
  });

  it('best fit takes the invoice whose balance equals the amount, else oldest first', () => {
    expect(shown(allocate(new Money('50.25'), { kind: 'auto', order: 'best_fit' }, invoices))).toEqual([[2, '50.25']]);
    expect(shown(allocate(new Money('60'), { kind: 'auto', order: 'best_fit' }, invoices))).toEqual([[1, '60.00']]);
  });

  it('skips paid invoices and leaves the rest unapplied', () => {
    const apps = allocate(new Money('500'), { kind: 'auto', order: 'oldest_first' }, [
      ...invoices,
      inv(4, '2025-01-01', '0'),
    ]);
    expect(shown(apps)).toEqual([
      [1, '100.00'],
      [2, '50.25'],
      [3, '200.00'],
    ]);
  });

  it('applies nothing without a style', () => {
    expect(allocate(new Money('10'), { kind: 'none' }, invoices)).toEqual([]);
  });
});
