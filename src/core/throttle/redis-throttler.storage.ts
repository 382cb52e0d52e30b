import { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';
import { TimeoutConfig } from 'src/config/app-config';
import { redisOptions } from 'src/config/redis-options';
import { RedisFallback } from './redis-fallback';
import { redisReady } from './redis-ready';

/**
 * Fixed-window counters in Redis, shared by every instance. One script does the
 * increment, the expiry and the block so concurrent requests cannot race.
 */
const INCREMENT_SCRIPT = `
local hits_key = KEYS[1]
local block_key = KEYS[2]
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local block = tonumber(ARGV[3])
local blocked_for = redis.call('PTTL', block_key)
if blocked_for > 0 then
  return { limit + 1, redis.call('PTTL', hits_key), 1, blocked_for }
end
local hits = redis.call('INCR', hits_key)
if hits == 1 then redis.call('PEXPIRE', hits_key, ttl) end
local expires_in = redis.call('PTTL', hits_key)
if hits > limit then
  redis.call('SET', block_key, '1', 'PX', block)
  return { hits, expires_in, 1, block }
end
return { hits, expires_in, 0, 0 }
`;

/**
 * While Redis does not answer (REDIS_COMMAND_TIMEOUT_MS), requests are counted in this
 * process instead, with a warning: an outage of Redis never stops the API.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly fallback: RedisFallback;
  private readonly local = new ThrottlerStorageService();

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly timeouts: TimeoutConfig,
  ) {
    this.redis = new Redis(url, redisOptions(timeouts));
    this.redis.on('error', () => undefined); // reported by the fallback, once per outage
    this.fallback = new RedisFallback(this.redis);
  }

  async onModuleInit(): Promise<void> {
    await redisReady(this.redis, this.timeouts.redisCommandMs);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const shared = await this.fallback.attempt(() =>
      this.incrementInRedis(key, ttl, limit, blockDuration, throttlerName),
    );
    return shared ?? this.local.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  private async incrementInRedis(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const base = `${this.prefix}:throttle:${throttlerName}:${key}`;
    const [hits, expiresMs, blocked, blockMs] = (await this.redis.eval(
      INCREMENT_SCRIPT,
      2,
      `${base}:hits`,
      `${base}:block`,
      ttl,
      limit,
      blockDuration,
    )) as [number, number, number, number];
    return {
      totalHits: hits,
      timeToExpire: Math.max(0, Math.ceil(expiresMs / 1000)),
      isBlocked: blocked === 1,
      timeToBlockExpire: Math.max(0, Math.ceil(blockMs / 1000)),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    this.local.onApplicationShutdown();
    if (this.redis.status === 'ready') await this.redis.quit();
    else this.redis.disconnect();
  }
}
