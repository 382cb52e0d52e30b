import { Money } from './decimal';
import { formatAmount } from './money-format';

describe('formatAmount', () => {
  it.each([
    ['$', '0', '$ 0.00'],
    ['$', '100.99', '$ 100.99'],
    ['€', '4500', '€ 4500.00'],
    ['$', '2.675', '$ 2.68'],
    ['$', '-83.83', '$ -83.83'],
  ])('%s %s -> %s', (symbol, value, expected) => {
    expect(formatAmount(symbol, new Money(value))).toBe(expected);
  });
});
