import { DatetimeRenderer } from './datetime-format';

describe('DatetimeRenderer', () => {
  const winter = new Date('2026-01-15T18:00:00.789Z');
  const summer = new Date('2026-07-01T17:00:00.000Z');

  describe('iso', () => {
    const renderer = new DatetimeRenderer('America/Chicago', 'iso');

    it('renders in the account zone with its offset, without milliseconds', () => {
      expect(renderer.datetime(winter)).toBe('2026-01-15T12:00:00-06:00');
      expect(renderer.datetime(summer)).toBe('2026-07-01T12:00:00-05:00');
    });

    it('renders null as null', () => {
      expect(renderer.datetime(null)).toBeNull();
      expect(renderer.datetime(undefined)).toBeNull();
    });
  });

  describe('sql', () => {
    const renderer = new DatetimeRenderer('America/Chicago', 'sql');

    it('renders local wall time without offset or milliseconds', () => {
      expect(renderer.datetime(winter)).toBe('2026-01-15 12:00:00');
      expect(renderer.datetime(summer)).toBe('2026-07-01 12:00:00');
    });

    it('truncates rather than rounds the milliseconds', () => {
      expect(renderer.datetime(new Date('2026-01-15T18:00:59.999Z'))).toBe('2026-01-15 12:00:59');
    });

    it('renders null as null', () => {
      expect(renderer.datetime(null)).toBeNull();
    });
  });

  it('renders the UTC zone with a Z suffix', () => {
    expect(new DatetimeRenderer('UTC', 'iso').datetime(winter)).toBe('2026-01-15T18:00:00Z');
  });

  describe('date', () => {
    const renderer = new DatetimeRenderer('America/Chicago', 'iso');

    it('keeps a stored calendar date string', () => {
      expect(renderer.date('2026-01-15')).toBe('2026-01-15');
      expect(renderer.date('2026-01-15 00:00:00')).toBe('2026-01-15');
    });

    it('renders an instant as its date in the account zone', () => {
      expect(renderer.date(new Date('2026-01-16T03:00:00Z'))).toBe('2026-01-15');
    });

    it('renders null and empty as null', () => {
      expect(renderer.date(null)).toBeNull();
      expect(renderer.date('')).toBeNull();
    });
  });
});

describe('DatetimeRenderer across offsets and transitions', () => {
  it('renders quarter-hour offsets', () => {
    expect(new DatetimeRenderer('Asia/Kathmandu', 'iso').datetime(new Date('2026-11-21T20:03:00.456Z'))).toBe(
      '2026-11-22T01:48:00+05:45',
    );
    expect(new DatetimeRenderer('America/St_Johns', 'iso').datetime(new Date('2026-01-15T12:00:00Z'))).toBe(
      '2026-01-15T08:30:00-03:30',
    );
  });

  it('switches offset exactly at the daylight-saving transitions', () => {
    const chicago = new DatetimeRenderer('America/Chicago', 'iso');
    // 2026-03-08 02:00 CST becomes 03:00 CDT (08:00 UTC).
    expect(chicago.datetime(new Date('2026-03-08T07:59:59Z'))).toBe('2026-03-08T01:59:59-06:00');
    expect(chicago.datetime(new Date('2026-03-08T08:00:00Z'))).toBe('2026-03-08T03:00:00-05:00');
    // 2026-11-01 02:00 CDT becomes 01:00 CST (07:00 UTC).
    expect(chicago.datetime(new Date('2026-11-01T06:59:59Z'))).toBe('2026-11-01T01:59:59-05:00');
    expect(chicago.datetime(new Date('2026-11-01T07:00:00Z'))).toBe('2026-11-01T01:00:00-06:00');
  });

  it('renders dates before 1970 and the date of an instant near midnight', () => {
    const renderer = new DatetimeRenderer('America/Chicago', 'sql');
    expect(renderer.datetime(new Date('1969-12-31T23:59:59Z'))).toBe('1969-12-31 17:59:59');
    expect(renderer.date(new Date('2026-03-08T05:59:59Z'))).toBe('2026-03-07');
    expect(renderer.date(new Date('2026-03-08T06:00:00Z'))).toBe('2026-03-08');
  });
});
