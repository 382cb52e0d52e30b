import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { RedisFallback } from './redis-fallback';

/**
 * Sliding windows, exact: per key, the times of its most recent events (at most `keep` of
 * them, the key's limit). "`limit` events within the last `windowMs`" holds exactly when
 * the limit-th most recent one is younger than `windowMs`, so a limit is never exceeded at
 * any moment (fixed windows let about twice the limit through around a boundary, issue 43).
 * Times are whatever "now" the caller passes (the Clock). In Redis (a sorted set per key)
 * when a client is given, shared by every instance; when Redis fails, counting goes on in
 * this process (with a warning) until it answers again, so an outage never stops a request.
 */
export class RecentEvents {
  private readonly local = new Map<string, number[]>();
  private readonly redis: RedisFallback | null;

  constructor(
    redis: Redis | null,
    private readonly prefix: string,
  ) {
    this.redis = redis ? new RedisFallback(redis) : null;
  }

  /**
   * Per key, the milliseconds from `now` until fewer than its limit of events lie within the
   * last `windowMs`: 0 when under the limit already.
   */
  async waitMs(keys: ReadonlyArray<{ key: string; limit: number }>, now: number, windowMs: number): Promise<number[]> {
    const names = keys.map(({ key }) => this.name(key));
    const fromRedis = await this.withRedis(async (redis) => {
      const batch = redis.multi();
      for (const name of names) batch.zrange(name, 0, -1, 'WITHSCORES');
      const replies = (await batch.exec()) ?? [];
      return replies.map(([error, reply]) => {
        if (error) throw error;
        return (reply as string[]).filter((_, i) => i % 2 === 1).map(Number);
      });
    });
    const times = fromRedis ?? names.map((name) => this.local.get(name) ?? []);
    if (!fromRedis) this.sweep(now, windowMs);
    return keys.map(({ limit }, i) => {
      const recent = [...times[i]].sort((a, b) => b - a);
      const limitTh = recent[limit - 1];
      return limitTh === undefined ? 0 : Math.max(0, limitTh + windowMs - now);
    });
  }

  /** Records an event at `now` under each key, keeping the key's `limit` most recent. */
  async add(keys: ReadonlyArray<{ key: string; limit: number }>, now: number, windowMs: number): Promise<void> {
    const member = `${now}:${randomBytes(6).toString('base64url')}`;
    const done = await this.withRedis((redis) => {
      const batch = redis.multi();
      for (const { key, limit } of keys) {
        const name = this.name(key);
        batch
          .zadd(name, now, member)
          .zremrangebyrank(name, 0, -(limit + 1))
          .pexpire(name, windowMs);
      }
      return batch.exec();
    });
    if (done) return;
    for (const { key, limit } of keys) {
      const name = this.name(key);
      const times = [...(this.local.get(name) ?? []), now].sort((a, b) => b - a).slice(0, limit);
      this.local.set(name, times);
    }
  }

  private name(key: string): string {
    return `${this.prefix}:${key}`;
  }

  private async withRedis<T>(command: (redis: Redis) => Promise<T>): Promise<T | null> {
    return this.redis ? this.redis.attempt(command) : null;
  }

  /** Forgets keys whose events are all older than the window (only when there are many). */
  private sweep(now: number, windowMs: number): void {
    if (this.local.size < 10_000) return;
    for (const [name, times] of this.local) if (times.every((time) => time <= now - windowMs)) this.local.delete(name);
  }
}
