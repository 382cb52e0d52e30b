import Decimal from 'decimal.js';
import { ApiError } from 'src/core/envelope/api-error';
import { assertFitsCurrency, fitsCurrency, smallestUnit } from './currency-units';

describe('currency units', () => {
  it.each([
    ['USD', '0.01'],
    ['eur', '0.01'],
    ['KWD', '0.01'], // three decimals, but amounts are kept to the cent
    ['JPY', '1'],
    ['krw', '1'],
    ['ISK', '1'], // card networks take whole krónur only
  ])('%s moves in steps of %s', (currency, step) => {
    expect(smallestUnit(currency).toString()).toBe(step);
  });

  it.each([
    ['10.00', 'USD', true],
    ['10.01', 'EUR', true],
    ['10.005', 'EUR', false],
    ['1234', 'JPY', true],
    ['1234.00', 'JPY', true],
    ['1234.50', 'JPY', false],
    ['0.01', 'KRW', false],
    ['5.12', 'KWD', true],
  ])('%s %s fits: %s', (amount, currency, fits) => {
    expect(fitsCurrency(new Decimal(amount), currency)).toBe(fits);
  });

  it('refuses with a 400 naming the field, never rounding', () => {
    let error: unknown;
    try {
      assertFitsCurrency(new Decimal('1234.50'), 'JPY', 'amount');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    expect((error as ApiError).message).toBe(
      'Field "amount": 1234.50 JPY is not a whole number of JPY\'s smallest unit (1); it is never rounded to fit.',
    );
  });
});
