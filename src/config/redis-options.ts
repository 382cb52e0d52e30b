import type { RedisOptions } from 'ioredis';
import { TimeoutConfig } from './app-config';

/**
 * Options for every Redis client the server opens: a command that gets no answer within
 * REDIS_COMMAND_TIMEOUT_MS fails instead of waiting, and while the connection is down
 * commands fail at once instead of queueing, so a stalled or stopped Redis never holds a
 * request. The client reconnects by itself (capped back-off) when Redis returns.
 */
export function redisOptions(timeouts: TimeoutConfig): RedisOptions {
  return {
    commandTimeout: timeouts.redisCommandMs,
    connectTimeout: timeouts.redisCommandMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  };
}
