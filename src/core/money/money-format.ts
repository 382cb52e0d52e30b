import Decimal from 'decimal.js';

/** An amount for people, as the recorded traffic shows it: `$ 100.99` (currency symbol, space, 2 places half up). */
export function formatAmount(symbol: string, value: Decimal): string {
  return `${symbol} ${value.toFixed(2, Decimal.ROUND_HALF_UP)}`;
}
