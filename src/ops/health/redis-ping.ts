import { OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';

/**
 * A Redis connection of its own for readiness pings: the queue's and the throttler's
 * clients retry and queue commands, which would hide an outage behind a slow answer.
 */
export class RedisPing implements OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  }

  async ping(): Promise<void> {
    if (this.redis.status === 'wait' || this.redis.status === 'end') await this.redis.connect();
    await this.redis.ping();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis.status !== 'end' && this.redis.status !== 'wait') await this.redis.quit().catch(() => undefined);
  }
}
