import { dunningRetryAt } from './dunning-schedule';

describe('dunningRetryAt', () => {
  const zone = 'America/Chicago';
  const first = new Date('2026-03-01T16:00:00Z'); // Mar 1, 10:00 in Chicago (CST)

  it('retries 3, 7 and 14 days after the first decline, then stops', () => {
    expect(dunningRetryAt(first, 1, zone)).toEqual(new Date('2026-03-04T16:00:00Z'));
    // Mar 8 is the spring-forward day: still 10:00 local, now CDT.
    expect(dunningRetryAt(first, 2, zone)).toEqual(new Date('2026-03-08T15:00:00Z'));
    expect(dunningRetryAt(first, 3, zone)).toEqual(new Date('2026-03-15T15:00:00Z'));
    expect(dunningRetryAt(first, 4, zone)).toBeNull();
  });

  it('has nothing to retry before a decline', () => {
    expect(dunningRetryAt(first, 0, zone)).toBeNull();
  });
});
