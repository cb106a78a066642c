import Redis from 'ioredis';
import type { SeenSignatures } from './seen-signatures';

/** One `SET key 1 PX ttl NX` per request: atomic, so of two replicas taking one signature at once exactly one wins. */
export class RedisSeenSignatures implements SeenSignatures {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly prefix = 'sig',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  }

  async firstUse(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX')) === 'OK';
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
