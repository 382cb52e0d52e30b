import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';

/** After a failure, Redis is tried again by one request at most this often. */
const RETRY_AFTER_MS = 5_000;

/**
 * Runs rate-limit commands on Redis while it answers, and tells the caller to count in
 * its own process while it does not: a failed or timed-out command (REDIS_COMMAND_TIMEOUT_MS)
 * marks Redis down, with one warning, and for RETRY_AFTER_MS no request waits on it again.
 */
export class RedisFallback {
  private readonly logger = new Logger('RateLimit');
  private downUntil = 0;
  private down = false;

  constructor(readonly redis: Redis) {}

  /** The command's result, or null when Redis is (or just went) down. */
  async attempt<T>(command: (redis: Redis) => Promise<T>): Promise<T | null> {
    if (this.down && (Date.now() < this.downUntil || this.redis.status !== 'ready')) return null; // stop-check: deliberate, a Redis outage's back-off in real time
    try {
      const result = await command(this.redis);
      if (this.down) this.logger.warn('Redis answers again: rate limits are shared again');
      this.down = false;
      return result;
    } catch (error) {
      if (!this.down) {
        this.logger.warn(
          `Redis is not answering (${error instanceof Error ? error.message : String(error)}): rate limits are counted in this process until it returns`,
        );
      }
      this.down = true;
      this.downUntil = Date.now() + RETRY_AFTER_MS; // stop-check: deliberate, a real-time back-off from Redis that a moved test clock must not end
      return null;
    }
  }
}
