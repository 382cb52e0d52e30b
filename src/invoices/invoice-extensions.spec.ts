import Decimal from 'decimal.js';
import { hasNetApplied, InvoiceApplied, netApplied, NOTHING_APPLIED } from './invoice-extensions';

describe('netApplied', () => {
  const applied = (payments: string, credits: string, writeoffs: string, refunds: string): InvoiceApplied => ({
    ...NOTHING_APPLIED,
    payments: new Decimal(payments),
    credits: new Decimal(credits),
    writeoffs: new Decimal(writeoffs),
    refunds: new Decimal(refunds),
  });

  it('is payments, credits and writeoffs less refunds', () => {
    expect(netApplied(applied('100', '10', '5', '30')).toString()).toBe('85');
    expect(hasNetApplied(applied('100', '0', '0', '100'))).toBe(false);
    expect(hasNetApplied(applied('0', '0', '0.01', '0'))).toBe(true);
  });
});
