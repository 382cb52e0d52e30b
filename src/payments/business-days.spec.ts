import { addBusinessDays } from './business-days';

describe('addBusinessDays', () => {
  const zone = 'America/Chicago';

  it('skips the weekend', () => {
    // Thursday 2026-11-19 12:00 Chicago + 3 business days = Tuesday 2026-11-24.
    const thursday = new Date('2026-11-19T18:00:00Z');
    expect(addBusinessDays(thursday, 3, zone).toISOString()).toBe('2026-11-24T18:00:00.000Z');
  });

  it('counts within one week', () => {
    const monday = new Date('2026-11-16T18:00:00Z');
    expect(addBusinessDays(monday, 2, zone).toISOString()).toBe('2026-11-18T18:00:00.000Z');
  });

  it('zero days is now', () => {
    const saturday = new Date('2026-11-21T18:00:00Z');
    expect(addBusinessDays(saturday, 0, zone).toISOString()).toBe('2026-11-21T18:00:00.000Z');
  });
});
