import { parseInputDate, parseInputDatetime } from './datetime-input';

const CHICAGO = 'America/Chicago';
const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

describe('parseInputDatetime', () => {
  it('reads a date as local midnight in the account zone', () => {
    expect(iso(parseInputDatetime('2026-01-15', CHICAGO))).toBe('2026-01-15T06:00:00.000Z'); // CST, UTC-6
    expect(iso(parseInputDatetime('2026-07-01', CHICAGO))).toBe('2026-07-01T05:00:00.000Z'); // CDT, UTC-5
  });

  it('reads a local datetime in the account zone, honouring daylight saving time', () => {
    expect(iso(parseInputDatetime('2026-01-15 12:00:00', CHICAGO))).toBe('2026-01-15T18:00:00.000Z');
    expect(iso(parseInputDatetime('2026-07-01 12:00:00', CHICAGO))).toBe('2026-07-01T17:00:00.000Z');
  });

  it('uses the zone it is given', () => {
    expect(iso(parseInputDatetime('2026-01-15 12:00:00', 'UTC'))).toBe('2026-01-15T12:00:00.000Z');
    expect(iso(parseInputDatetime('2026-01-15 12:00:00', 'Asia/Kolkata'))).toBe('2026-01-15T06:30:00.000Z');
  });

  it('reads an ISO datetime with an offset, ignoring the account zone', () => {
    expect(iso(parseInputDatetime('2026-01-15T12:00:00+02:00', CHICAGO))).toBe('2026-01-15T10:00:00.000Z');
    expect(iso(parseInputDatetime('2026-01-15T12:00:00Z', CHICAGO))).toBe('2026-01-15T12:00:00.000Z');
    expect(iso(parseInputDatetime('2026-01-15T12:00:00-0600', CHICAGO))).toBe('2026-01-15T18:00:00.000Z');
    expect(iso(parseInputDatetime('2026-01-15T12:00:00.250Z', CHICAGO))).toBe('2026-01-15T12:00:00.250Z');
  });

  it.each([
    '2026-13-01',
    '2026-02-30',
    '2026-01-15 25:00:00',
    '2026-01-15 12:60:00',
    '15/01/2026',
    '01/15/2026',
    '2026-1-15',
    '2026-01-15T12:00:00',
    '2026-01-15 12:00',
    '2026-01-15T12:00:00+02:00 ',
    '2026-02-30T12:00:00Z',
    '',
    'yesterday',
    'not a date at all',
  ])('refuses %j', (raw) => {
    expect(parseInputDatetime(raw, CHICAGO)).toBeNull();
  });
});

describe('parseInputDate', () => {
  it('keeps a valid calendar date as it is', () => {
    expect(parseInputDate('2026-01-15', CHICAGO)).toBe('2026-01-15');
    expect(parseInputDate('2028-02-29', CHICAGO)).toBe('2028-02-29');
  });

  it('refuses an impossible calendar date', () => {
    expect(parseInputDate('2026-02-29', CHICAGO)).toBeNull();
    expect(parseInputDate('2026-13-01', CHICAGO)).toBeNull();
  });

  it('cuts a datetime to its date in the account zone', () => {
    expect(parseInputDate('2026-01-15 23:30:00', CHICAGO)).toBe('2026-01-15');
    // 03:00Z on the 16th is 21:00 on the 15th in Chicago.
    expect(parseInputDate('2026-01-16T03:00:00Z', CHICAGO)).toBe('2026-01-15');
    expect(parseInputDate('2026-01-16T03:00:00Z', 'UTC')).toBe('2026-01-16');
  });

  it('refuses anything else', () => {
    expect(parseInputDate('15/01/2026', CHICAGO)).toBeNull();
    expect(parseInputDate('', CHICAGO)).toBeNull();
    expect(parseInputDate('2026-01-15T12:00:00', CHICAGO)).toBeNull();
  });
});

describe('input years (1900 to 2999 in the account zone)', () => {
  const zone = 'America/Chicago';

  it('accepts the first and last day of the range', () => {
    expect(parseInputDate('1900-01-01', zone)).toBe('1900-01-01');
    expect(parseInputDate('2999-12-31', zone)).toBe('2999-12-31');
    expect(parseInputDatetime('2999-12-31 23:59:59', zone)).not.toBeNull();
  });

  it.each([
    '9999-12-31',
    '1899-12-31',
    '3000-01-01',
    '0000-01-01',
    '2999-12-31T23:00:00-12:00',
    '1900-01-01T00:30:00+14:00',
  ])('refuses %s', (raw) => {
    expect(parseInputDate(raw, zone)).toBeNull();
    expect(parseInputDatetime(raw, zone)).toBeNull();
  });
});
