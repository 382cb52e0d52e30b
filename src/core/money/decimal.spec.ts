import Decimal from 'decimal.js';
import { Money, moneyToJson, roundCents, sumMoney, toMoney, ZERO } from './decimal';

describe('roundCents', () => {
  it.each([
    ['1.005', '1.01'],
    ['2.675', '2.68'], // 2.675 as a JS float is 2.67499999..., the decimal is not
    ['1.004', '1'],
    ['1.0049999', '1'],
    ['0.125', '0.13'],
    ['10', '10'],
    ['-1.005', '-1.01'], // ROUND_HALF_UP in decimal.js rounds ties away from zero
    ['-2.675', '-2.68'],
    ['-1.004', '-1'],
  ])('rounds %s to %s', (input, expected) => {
    expect(roundCents(new Money(input)).toString()).toBe(expected);
  });

  it('does not fall into the float trap when given a JS number', () => {
    // (2.675).toFixed(2) is "2.67" in JavaScript; decimal.js reads the shortest decimal form.
    expect((2.675).toFixed(2)).toBe('2.67');
    expect(roundCents(toMoney(2.675)).toFixed(2)).toBe('2.68');
    expect(roundCents(toMoney(1.005)).toFixed(2)).toBe('1.01');
  });
});

describe('money helpers', () => {
  it('sums many 0.1s exactly', () => {
    const total = sumMoney(Array.from({ length: 1000 }, () => new Money('0.1')));
    expect(total.toString()).toBe('100');
    expect(sumMoney([new Money('0.1'), new Money('0.2')]).toString()).toBe('0.3');
  });

  it('sums nothing to zero', () => {
    expect(sumMoney([]).eq(ZERO)).toBe(true);
  });

  it('toMoney treats null and undefined as zero', () => {
    expect(toMoney(null).toString()).toBe('0');
    expect(toMoney(undefined).toString()).toBe('0');
    expect(toMoney('19.99').toString()).toBe('19.99');
  });

  it('Money keeps 40 significant digits', () => {
    expect(new Money('12345678901234.99').plus('0.01').toString()).toBe('12345678901235');
    expect(new Money(1).div(3).toString()).toBe('0.' + '3'.repeat(40));
  });

  it('moneyToJson renders a JSON number, null for null', () => {
    expect(moneyToJson(new Money('10.50'))).toBe(10.5);
    expect(moneyToJson(new Money('-3.20'))).toBe(-3.2);
    expect(moneyToJson(new Decimal('0'))).toBe(0);
    expect(moneyToJson(null)).toBeNull();
    expect(moneyToJson(undefined)).toBeNull();
  });
});
