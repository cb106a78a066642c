import { randomUUID } from 'node:crypto';
import { realServiceAddress } from '../../../../test/support/real-services';
import { InMemoryRateLimitStore, type RateLimitStore } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit-store';

const redisUrl = realServiceAddress('REDIS_URL', 'rate-limit store on Redis');

function describeStore(name: string, available: boolean, make: () => RateLimitStore): void {
  (available ? describe : describe.skip)(`rate-limit store contract: ${name}`, () => {
    let store: RateLimitStore;
    beforeAll(() => {
      store = make();
    });
    afterAll(async () => store.close());

    it('adds within a window and starts again in the next one', async () => {
      const key = `t:${randomUUID()}`;
      expect(await store.increment(key, 3, 60_000, 120_000)).toBe(3);
      expect(await store.increment(key, 4, 60_000, 179_999)).toBe(7);
      expect(await store.increment(key, 1, 60_000, 180_000)).toBe(1);
    });

    it('keeps windows of different lengths and keys apart', async () => {
      const key = `t:${randomUUID()}`;
      expect(await store.increment(key, 1, 1000, 5000)).toBe(1);
      expect(await store.increment(key, 1, 86_400_000, 5000)).toBe(1);
      expect(await store.increment(`${key}x`, 1, 1000, 5000)).toBe(1);
    });

    it('counts concurrent increments exactly once each', async () => {
      const key = `t:${randomUUID()}`;
      const totals = await Promise.all(Array.from({ length: 200 }, () => store.increment(key, 1, 60_000, 60_000)));
      expect(Math.max(...totals)).toBe(200);
      expect(new Set(totals).size).toBe(200);
    });
  });
}

describeStore('memory', true, () => new InMemoryRateLimitStore());
describeStore('redis', redisUrl !== undefined, () => new RedisRateLimitStore(redisUrl!, `test-${randomUUID()}`));
