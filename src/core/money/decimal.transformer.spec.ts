import Decimal from 'decimal.js';
import { AMOUNT, DecimalTransformer, RATE } from './decimal.transformer';
import { Money } from './decimal';

describe('DecimalTransformer', () => {
  const cents = new DecimalTransformer(2);

  describe('to (writing)', () => {
    it('writes a fixed-point string with the column scale', () => {
      expect(cents.to('10.5')).toBe('10.50');
      expect(cents.to(new Money('7'))).toBe('7.00');
      expect(cents.to(3)).toBe('3.00');
      expect(new DecimalTransformer(6).to('0.1')).toBe('0.100000');
    });

    it('rounds half up to the scale', () => {
      expect(cents.to('1.005')).toBe('1.01');
      expect(cents.to('2.675')).toBe('2.68');
      expect(cents.to('-1.005')).toBe('-1.01');
      expect(cents.to('1.004')).toBe('1.00');
    });

    it('never goes through a JS float or exponent notation', () => {
      // As a float, 12345678901234.99 would be 12345678901234.990234375.
      expect(cents.to('12345678901234.99')).toBe('12345678901234.99');
      expect(cents.to(new Money('1e-7'))).toBe('0.00');
      expect(cents.to(new Money('1e21'))).toBe('1000000000000000000000.00');
    });

    it('passes null and undefined through', () => {
      expect(cents.to(null)).toBeNull();
      expect(cents.to(undefined)).toBeUndefined();
    });
  });

  describe('from (reading)', () => {
    it('accepts the MySQL driver string', () => {
      const value = cents.from('10.50');
      expect(value).toBeInstanceOf(Decimal);
      expect(value?.toString()).toBe('10.5');
    });

    it('accepts the SQLite driver number', () => {
      expect(cents.from(10.5)?.toString()).toBe('10.5');
      expect(cents.from(0.1)?.toString()).toBe('0.1');
    });

    it('reads null as null', () => {
      expect(cents.from(null)).toBeNull();
    });

    it('round-trips a large amount exactly', () => {
      const written = cents.to(cents.from('12345678901234.99'));
      expect(written).toBe('12345678901234.99');
    });
  });

  it('AMOUNT and RATE describe decimal(18,2) and decimal(18,6)', () => {
    expect(AMOUNT).toMatchObject({ type: 'decimal', precision: 18, scale: 2 });
    expect(RATE).toMatchObject({ type: 'decimal', precision: 18, scale: 6 });
    expect(AMOUNT.transformer.to('1')).toBe('1.00');
    expect(RATE.transformer.to('1')).toBe('1.000000');
  });
});
