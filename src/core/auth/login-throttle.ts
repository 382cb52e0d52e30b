import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { hash } from 'node:crypto';
import { APP_CONFIG, AppConfig } from 'src/config/app-config';
import { redisOptions } from 'src/config/redis-options';
import { Clock } from 'src/core/clock/clock';
import { redisReady } from 'src/core/throttle/redis-ready';
import { RecentEvents } from 'src/core/throttle/recent-events';

/** Usernames whose key digest is kept (a guesser sending new names only refills it). */
const MAX_USER_KEYS = 1000;

/**
 * Slows password guessing without letting a guesser lock the real credential out. Failed
 * sign-ins are counted over a sliding window (the last AUTH_FAILURE_WINDOW_SECONDS, at
 * every moment: never more than the limit in any such span) per client address, per
 * (address, username) and per username. An address over its own limit, or over its limit
 * for that username, is refused (429) before its credentials are checked. The per-username
 * limit only bars addresses that have themselves failed in the window: a clean address
 * still signs in, so guesses from elsewhere cannot lock the owner out.
 */
@Injectable()
export class LoginThrottle implements OnModuleInit, OnApplicationShutdown {
  private readonly redis: Redis | null;
  private readonly events: RecentEvents;
  private readonly windowMs: number;
  private readonly userKeys = new Map<string, string>();

  constructor(
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.redis = config.redisUrl ? new Redis(config.redisUrl, redisOptions(config.timeouts)) : null;
    // An error event without a listener would be thrown; RecentEvents reports outages.
    this.redis?.on('error', () => undefined);
    this.events = new RecentEvents(this.redis, `billing:${config.db.name}:login`);
    this.windowMs = config.authThrottle.windowSeconds * 1000;
  }

  async onModuleInit(): Promise<void> {
    if (this.redis) await redisReady(this.redis, this.config.timeouts.redisCommandMs);
  }

  /** Seconds the caller must wait before signing in as `username` from `address`, or 0. */
  async retryAfter(address: string, username: string): Promise<number> {
    const now = this.clock.now().getTime();
    const keys = this.keys(address, username);
    // The per-username limit bars only an address that has failed itself within the window
    // (its last failure is younger than the window: the address key read with a limit of 1).
    const [byAddress, byAddressUser, byUser, failedHere] = await this.events.waitMs(
      [...keys, { key: keys[0].key, limit: 1 }],
      now,
      this.windowMs,
    );
    const waitMs = Math.max(byAddress, byAddressUser, failedHere > 0 ? byUser : 0);
    return Math.ceil(waitMs / 1000);
  }

  /** Counts one failed sign-in. */
  async failed(address: string, username: string): Promise<void> {
    await this.events.add(this.keys(address, username), this.clock.now().getTime(), this.windowMs);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.redis?.status === 'ready') await this.redis.quit();
    else this.redis?.disconnect();
  }

  /** Per address, per (address, username) and per username, each with its limit. */
  private keys(address: string, username: string): Array<{ key: string; limit: number }> {
    const user = this.userKey(username);
    const limits = this.config.authThrottle;
    return [
      { key: `a:${address}`, limit: limits.perAddress },
      { key: `au:${address}:${user}`, limit: limits.perAddressUser },
      { key: `u:${user}`, limit: limits.perUser },
    ];
  }

  /** A digest keeps keys short whatever the client sends as a username; the few in use are kept. */
  private userKey(username: string): string {
    let key = this.userKeys.get(username);
    if (key === undefined) {
      key = hash('sha256', username, 'base64url').slice(0, 22);
      if (this.userKeys.size >= MAX_USER_KEYS) this.userKeys.clear();
      this.userKeys.set(username, key);
    }
    return key;
  }
}
