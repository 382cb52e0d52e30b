import { ApiError } from 'src/core/envelope/api-error';
import { toBoundValue } from './where-value';

const ZONE = 'America/Chicago';

function badRequest(type: Parameters<typeof toBoundValue>[1], raw: string): ApiError {
  try {
    toBoundValue('f', type, raw, ZONE);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    return error as ApiError;
  }
  throw new Error(`expected a 400 for ${type} ${raw}`);
}

describe('toBoundValue', () => {
  it('binds strings as they are', () => {
    expect(toBoundValue('f', 'string', "it's; --", ZONE)).toBe("it's; --");
  });

  it('binds integers as numbers and rejects anything else, naming the field', () => {
    expect(toBoundValue('f', 'int', '42', ZONE)).toBe(42);
    expect(toBoundValue('f', 'int', '-7', ZONE)).toBe(-7);
    for (const bad of ['4.2', '', 'x', '1e3', '44limit=100?offset=0', '99999999999999999']) {
      expect(badRequest('int', bad).message).toMatch(/^Invalid value for where field "f": expected an integer/);
    }
  });

  it('keeps decimals as text', () => {
    for (const ok of ['10', '10.50', '-3', '+0.5', '.5', '5.']) expect(toBoundValue('f', 'number', ok, ZONE)).toBe(ok);
    for (const bad of ['', '1e3', '1,5', 'NaN', 'Infinity', '0x1', '.', '-']) {
      expect(badRequest('number', bad).message).toMatch(/expected a decimal number/);
    }
  });

  it('binds booleans as 1 or 0', () => {
    expect(toBoundValue('f', 'bool', 'true', ZONE)).toBe(1);
    expect(toBoundValue('f', 'bool', 'TRUE', ZONE)).toBe(1);
    expect(toBoundValue('f', 'bool', '1', ZONE)).toBe(1);
    expect(toBoundValue('f', 'bool', 'false', ZONE)).toBe(0);
    expect(toBoundValue('f', 'bool', '0', ZONE)).toBe(0);
    expect(badRequest('bool', 'yes').message).toMatch(/expected true, false, 1 or 0/);
  });

  it('accepts real calendar dates only', () => {
    expect(toBoundValue('f', 'date', '2024-02-29', ZONE)).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-1-1', '2024-01-01 00:00:00']) {
      expect(badRequest('date', bad).message).toMatch(/expected a date/);
    }
  });

  it('converts datetimes from the account zone or an explicit offset to UTC text', () => {
    expect(toBoundValue('f', 'datetime', '2024-01-15', ZONE)).toBe('2024-01-15 06:00:00.000');
    expect(toBoundValue('f', 'datetime', '2024-07-15 10:30:00', ZONE)).toBe('2024-07-15 15:30:00.000');
    expect(toBoundValue('f', 'datetime', '2024-07-15T10:30:00+02:00', ZONE)).toBe('2024-07-15 08:30:00.000');
    expect(toBoundValue('f', 'datetime', '2024-07-15T10:30:00Z', ZONE)).toBe('2024-07-15 10:30:00.000');
    for (const bad of ['2024-07-15T10:30:00', '2024-02-30', 'yesterday', '2024-07-15 25:00:00']) {
      expect(badRequest('datetime', bad).message).toMatch(/expected a datetime/);
    }
  });
});
