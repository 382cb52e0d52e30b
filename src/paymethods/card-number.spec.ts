import { cardBrand, isValidCvv, maskCardNumber, normaliseCardNumber, passesLuhn } from './card-number';

describe('card numbers', () => {
  it.each([
    ['4242424242424242', true],
    ['4111111111111111', true],
    ['5555555555554444', true],
    ['378282246310005', true],
    ['6011111111111117', true],
    ['4242424242424241', false],
    ['1234567812345678', false],
  ])('Luhn %s -> %s', (number, ok) => {
    expect(passesLuhn(number)).toBe(ok);
  });

  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mast'],
    ['2223003122003222', 'mast'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['6011111111111117', 'disc'],
    ['6500000000000002', 'disc'],
    ['9999999999999995', null],
  ])('brand of %s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });

  it('masks all but the last four digits', () => {
    expect(maskCardNumber('4242424242424242')).toBe('xxxx-xxxx-xxxx-4242');
  });

  it('drops spaces and dashes, refuses other characters and bad lengths', () => {
    expect(normaliseCardNumber('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(normaliseCardNumber('4242a42424242424')).toBeNull();
    expect(normaliseCardNumber('42424')).toBeNull();
  });

  it('wants 4 CVV digits on amex and 3 elsewhere', () => {
    expect(isValidCvv('123', 'visa')).toBe(true);
    expect(isValidCvv('1234', 'visa')).toBe(false);
    expect(isValidCvv('1234', 'amex')).toBe(true);
    expect(isValidCvv('12a', 'mast')).toBe(false);
  });
});
