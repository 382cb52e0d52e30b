import { MAX_ATTEMPTS, retryDelayAfter } from './retry-schedule';

describe('retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h, 24 h, then gives up', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(retryDelayAfter);
    expect(delays).toEqual([5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6, 864e5, 864e5]);
    expect(retryDelayAfter(10)).toBeNull();
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it('has no delay before a first failure', () => {
    expect(retryDelayAfter(0)).toBeNull();
  });
});
