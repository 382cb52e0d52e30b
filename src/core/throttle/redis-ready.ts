import type Redis from 'ioredis';

/**
 * Waits (at most `timeoutMs`) for a new client's first connection, so the first requests
 * after start do not fail for want of it (commands do not queue while it is down). A
 * Redis that is down at start is no error: the client keeps reconnecting by itself.
 */
export function redisReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    redis.once('ready', done);
  });
}
