import { randomUUID } from 'node:crypto';
import { realServiceAddress } from '../../../../test/support/real-services';
import { RedisSeenSignatures } from './redis-seen-signatures';
import { InMemorySeenSignatures, type SeenSignatures } from './seen-signatures';

const redisUrl = realServiceAddress('REDIS_URL', 'replay guard on Redis');

function describeStore(name: string, available: boolean, make: () => SeenSignatures): void {
  (available ? describe : describe.skip)(`seen signatures: ${name}`, () => {
    let store: SeenSignatures;
    beforeAll(() => {
      store = make();
    });
    afterAll(async () => store.close());

    it('accepts a signature once until it expires', async () => {
      const key = `k:${randomUUID()}`;
      expect(await store.firstUse(key, 60_000, Date.now())).toBe(true);
      expect(await store.firstUse(key, 60_000, Date.now())).toBe(false);
      expect(await store.firstUse(`${key}x`, 60_000, Date.now())).toBe(true);
    });

    it('lets exactly one of many concurrent uses of one signature through', async () => {
      const key = `k:${randomUUID()}`;
      const firsts = await Promise.all(Array.from({ length: 50 }, () => store.firstUse(key, 60_000, Date.now())));
      expect(firsts.filter(Boolean)).toHaveLength(1);
    });
  });
}

describeStore('memory', true, () => new InMemorySeenSignatures(1000));
describeStore('redis', redisUrl !== undefined, () => new RedisSeenSignatures(redisUrl!, `test-${randomUUID()}`));

(redisUrl ? describe : describe.skip)('seen signatures shared by two gateway replicas through Redis', () => {
  it('refuses on one replica the signature the other accepted, and forgets it after its time', async () => {
    const prefix = `test-${randomUUID()}`;
    const [a, b]: [SeenSignatures, SeenSignatures] = [
      new RedisSeenSignatures(redisUrl!, prefix),
      new RedisSeenSignatures(redisUrl!, prefix),
    ];
    try {
      const key = `k:${randomUUID()}`;
      expect(await a.firstUse(key, 300, Date.now())).toBe(true);
      expect(await b.firstUse(key, 300, Date.now())).toBe(false);
      const racing = `k:${randomUUID()}`;
      const both = await Promise.all([a.firstUse(racing, 60_000, Date.now()), b.firstUse(racing, 60_000, Date.now())]);
      expect(both.filter(Boolean)).toHaveLength(1);
      const deadline = Date.now() + 10_000;
      let again = false;
      while (!again && Date.now() < deadline) {
        again = await b.firstUse(key, 300, Date.now());
        if (!again) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(again).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
