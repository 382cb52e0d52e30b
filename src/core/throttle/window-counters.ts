import type Redis from 'ioredis';
import { RedisFallback } from './redis-fallback';

/**
 * Fixed-window counters (one count per key per window of `windowMs`). The window number is
 * part of the key, so counting follows whatever "now" the caller passes (the Clock) and
 * old windows simply expire. In Redis when a client is given, shared by every instance;
 * when Redis fails, counting goes on in this process (with a warning) until it answers
 * again, so an outage never stops a request.
 */
export class WindowCounters {
  private readonly local = new Map<string, { count: number; expiresAt: number }>();
  private readonly redis: RedisFallback | null;

  constructor(
    redis: Redis | null,
    private readonly prefix: string,
  ) {
    this.redis = redis ? new RedisFallback(redis) : null;
  }

  /** The counts of `keys` in the window holding `now`. */
  async read(keys: readonly string[], now: number, windowMs: number): Promise<number[]> {
    const names = keys.map((key) => this.name(key, now, windowMs));
    const counts = await this.withRedis((redis) => redis.mget(...names));
    if (counts) return counts.map((count) => Number(count ?? 0));
    this.sweep(now);
    return names.map((name) => this.local.get(name)?.count ?? 0);
  }

  /** Adds one to each of `keys` in the window holding `now`. */
  async add(keys: readonly string[], now: number, windowMs: number): Promise<void> {
    const names = keys.map((key) => this.name(key, now, windowMs));
    const done = await this.withRedis((redis) => {
      const batch = redis.multi();
      for (const name of names) batch.incr(name).pexpire(name, windowMs * 2);
      return batch.exec();
    });
    if (done) return;
    const expiresAt = (Math.floor(now / windowMs) + 1) * windowMs;
    for (const name of names) {
      const entry = this.local.get(name);
      if (entry) entry.count += 1;
      else this.local.set(name, { count: 1, expiresAt });
    }
  }

  /** Milliseconds from `now` to the end of its window. */
  static remainingMs(now: number, windowMs: number): number {
    return windowMs - (now % windowMs);
  }

  private name(key: string, now: number, windowMs: number): string {
    return `${this.prefix}:${key}:${Math.floor(now / windowMs)}`;
  }

  private async withRedis<T>(command: (redis: Redis) => Promise<T>): Promise<T | null> {
    return this.redis ? this.redis.attempt(command) : null;
  }

  private sweep(now: number): void {
    if (this.local.size < 10_000) return;
    for (const [name, entry] of this.local) if (entry.expiresAt <= now) this.local.delete(name);
  }
}
