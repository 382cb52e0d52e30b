import { ApiError } from 'src/core/envelope/api-error';
import { parseDecimalInput } from './decimal-input';

describe('parseDecimalInput', () => {
  it.each([
    [100.99, '100.99'],
    ['800', '800'],
    [' 2.675 ', '2.675'],
    [0, '0'],
    ['-5.5', '-5.5'],
    [1e-7, null],
  ])('reads %j', (input, expected) => {
    if (expected === null) {
      expect(() => parseDecimalInput(input, 'x')).toThrow(ApiError);
    } else {
      expect(parseDecimalInput(input, 'x').toString()).toBe(expected);
    }
  });

  it.each([['abc'], [''], [null], [true], [{}], ['1e5'], [Number.NaN]])('refuses %j naming the field', (input) => {
    expect(() => parseDecimalInput(input, 'line_items[0].line_rate')).toThrow(
      'Invalid field "line_items[0].line_rate": must be a number.',
    );
  });

  it('enforces the column scale: 6 decimals unless told', () => {
    expect(parseDecimalInput('1.123456', 'line_rate').toString()).toBe('1.123456');
    expect(() => parseDecimalInput('1.1234567', 'line_rate')).toThrow('Invalid field "line_rate": at most 6 decimals.');
    expect(parseDecimalInput('19.90', 'base', { decimals: 2 }).toString()).toBe('19.9');
    expect(() => parseDecimalInput(0.125, 'tiersets[0].base', { decimals: 2 })).toThrow(
      'Invalid field "tiersets[0].base": at most 2 decimals.',
    );
  });

  it('enforces a minimum', () => {
    expect(() => parseDecimalInput('-1', 'line_quantity', { min: 0 })).toThrow(
      'Invalid field "line_quantity": must not be less than 0.',
    );
    expect(parseDecimalInput('0', 'line_quantity', { min: 0 }).toString()).toBe('0');
  });

  it('enforces a maximum', () => {
    expect(() => parseDecimalInput('100.5', 'percent', { max: 100 })).toThrow(
      'Invalid field "percent": must not be more than 100.',
    );
    expect(parseDecimalInput(100, 'percent', { max: 100 }).toString()).toBe('100');
  });
});
