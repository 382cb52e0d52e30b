import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { centsText } from 'src/core/money/money-format';

/**
 * Currencies paid in whole units only: Stripe's zero-decimal list
 * (https://docs.stripe.com/currencies#zero-decimal) and ISK, which card networks take in
 * whole krónur only (Stripe's "special cases"). Every other currency moves in hundredths
 * (amounts are kept to the cent, DESIGN §5; a three-decimal currency's 0.01 is 10 of its
 * thousandths).
 */
export const WHOLE_UNIT_CURRENCIES: ReadonlySet<string> = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

const CENT = new Decimal('0.01');
const ONE = new Decimal(1);

/** The smallest amount a charge or refund in `currency` (ISO 4217, any case) can move. */
export function smallestUnit(currency: string): Decimal {
  return WHOLE_UNIT_CURRENCIES.has(currency.toUpperCase()) ? ONE : CENT;
}

/** Whether `amount` is a whole number of the currency's smallest unit (never rounded to fit). */
export function fitsCurrency(amount: Decimal, currency: string): boolean {
  return amount.mod(smallestUnit(currency)).isZero();
}

/** The message for an amount that does not fit its currency's unit. */
export function notInUnitMessage(amount: Decimal, currency: string): string {
  return `${centsText(amount)} ${currency.toUpperCase()} is not a whole number of ${currency.toUpperCase()}'s smallest unit (${smallestUnit(currency).toString()}); it is never rounded to fit.`;
}

/** The 400 for a charge or refund of `amount` that does not fit `currency`, naming `field`. */
export function assertFitsCurrency(amount: Decimal, currency: string, field: string): void {
  if (!fitsCurrency(amount, currency))
    throw ApiError.badRequest(`Field "${field}": ${notInUnitMessage(amount, currency)}`);
}
