import { parseAmount, parsePositiveAmount } from './amount-input';

describe('amount input', () => {
  it('reads numbers and numeric strings exactly', () => {
    expect(parseAmount('42.50', 'amount').toFixed(2)).toBe('42.50');
    expect(parseAmount(100.1, 'amount').toFixed(2)).toBe('100.10');
    expect(parseAmount(4500, 'amount').toFixed(2)).toBe('4500.00');
  });

  it('refuses text, too many decimals, and (for payments) 0 or less', () => {
    expect(() => parseAmount('abc', 'amount')).toThrow('Invalid field "amount": must be a number.');
    expect(() => parseAmount('1.005', 'amount')).toThrow('Invalid field "amount": at most 2 decimals.');
    expect(() => parsePositiveAmount('0', 'amount')).toThrow('Field "amount" must be more than 0.');
    expect(() => parsePositiveAmount(-5, 'amount')).toThrow('Field "amount" must be more than 0.');
  });
});
