import { typedDigits } from './typed-digits';

describe('typedDigits', () => {
  it.each([
    ['4242 4242-4242 4242', '4242424242424242'],
    ['110-000-000', '110000000'],
    ['0001 2345 6789', '000123456789'],
    ['\t12 34\n', '1234'],
  ])('reads %j as %j', (typed, digits) => {
    expect(typedDigits(typed)).toBe(digits);
  });

  it('keeps anything but spaces and dashes, so the checks still refuse it', () => {
    expect(typedDigits('12.34/56')).toBe('12.34/56');
  });
});
