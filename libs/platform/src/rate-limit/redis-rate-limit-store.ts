import Redis from 'ioredis';
import type { RateLimitStore } from './rate-limit-store';

/** Fixed-window counters in Redis: one INCRBY and one PEXPIRE per call, in one round trip. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'rl',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  }

  async increment(key: string, amount: number, windowMs: number, now: number): Promise<number> {
    const window = Math.floor(now / windowMs);
    const id = `${this.prefix}:${key}:${windowMs}:${window}`;
    const result = await this.redis
      .multi()
      .incrby(id, amount)
      .pexpire(id, windowMs * 2)
      .exec();
    const [error, count] = result?.[0] ?? [new Error('redis: empty transaction result'), 0];
    if (error) throw error;
    return Number(count);
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
