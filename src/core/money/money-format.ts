import Decimal from 'decimal.js';

/** An amount for people, as the recorded traffic shows it: `$ 100.99` (currency symbol, space, 2 places half up). */
export function formatAmount(symbol: string, value: Decimal): string {
  return `${symbol} ${centsText(value)}`;
}

/** An amount in a message, with exactly 2 places (`12.50`): decimal formatting, never a float. */
export function centsText(value: Decimal): string {
  return value.toFixed(2, Decimal.ROUND_HALF_UP);
}
