import { randomUUID } from 'node:crypto';
import { realServiceAddress } from '../../../../test/support/real-services';
import { waitFor } from '../../../../test/support/wait-for';
import { ManualClock } from '../time/clock';
import {
  InMemoryListenKeyStore,
  LISTEN_KEY_FORMAT,
  LISTEN_KEY_VALIDITY_MS,
  type ListenKeyStore,
} from './listen-key-store';
import { RedisListenKeyStore } from './redis-listen-key-store';

const redisUrl = realServiceAddress('REDIS_URL', 'listenKey store on Redis');
const MINUTE = 60_000;

interface StorePair {
  /** What the gateway uses. */
  store: ListenKeyStore;
  /** What another replica uses: the same instance in memory, a second client of the same Redis. */
  peer: ListenKeyStore;
}

function describeStore(name: string, available: boolean, make: (clock: ManualClock) => StorePair): void {
  (available ? describe : describe.skip)(`listenKey store contract: ${name}`, () => {
    const clock = new ManualClock(1_700_000_000_000);
    let pair: StorePair;
    const owner = (apiKey = randomUUID()) => ({ apiKey, accountId: '11', userId: '7' });
    beforeAll(() => {
      pair = make(clock);
    });
    afterAll(async () => {
      await pair.store.close();
      if (pair.peer !== pair.store) await pair.peer.close();
    });

    it('opens a 60-character key valid 60 minutes, and returns the same live key to the same API key with its expiry moved', async () => {
      const o = owner();
      const first = await pair.store.open(o);
      expect(first).toEqual({
        listenKey: expect.stringMatching(LISTEN_KEY_FORMAT),
        ...o,
        expiresAt: clock.now() + LISTEN_KEY_VALIDITY_MS,
      });
      clock.advance(10 * MINUTE);
      const again = await pair.store.open(o);
      expect(again).toEqual({ ...first, expiresAt: clock.now() + LISTEN_KEY_VALIDITY_MS });
      expect(await pair.peer.find(first.listenKey)).toEqual(again);
      expect((await pair.store.open(owner())).listenKey).not.toBe(first.listenKey);
    });

    it('forgets a key at its expiry; the next open makes a new one', async () => {
      const o = owner();
      const record = await pair.store.open(o);
      clock.advance(LISTEN_KEY_VALIDITY_MS - 1);
      expect(await pair.peer.find(record.listenKey)).toBeDefined();
      clock.advance(1);
      expect(await pair.peer.find(record.listenKey)).toBeUndefined();
      expect(await pair.store.extend(record.listenKey)).toBeUndefined();
      expect(await pair.store.find(record.listenKey)).toBeUndefined();
      const next = await pair.store.open(o);
      expect(next.listenKey).not.toBe(record.listenKey);
    });

    it('extends a live key by 60 minutes from now, and never an unknown one', async () => {
      const record = await pair.store.open(owner());
      clock.advance(50 * MINUTE);
      expect(await pair.store.extend(record.listenKey)).toEqual({
        ...record,
        expiresAt: clock.now() + LISTEN_KEY_VALIDITY_MS,
      });
      clock.advance(50 * MINUTE);
      expect(await pair.peer.find(record.listenKey)).toBeDefined();
      expect(await pair.store.extend('x'.repeat(60))).toBeUndefined();
      expect(await pair.store.find('x'.repeat(60))).toBeUndefined();
    });

    it('removes a key, tells every replica, and lets the API key open a new one', async () => {
      const heard: string[] = [];
      const unsubscribe = await pair.peer.onRemoved((k) => heard.push(k));
      const o = owner();
      const record = await pair.store.open(o);
      expect(await pair.store.remove(record.listenKey)).toBe(true);
      await waitFor(() => heard.includes(record.listenKey), 'the removal to reach the other replica', 5000);
      expect(await pair.peer.find(record.listenKey)).toBeUndefined();
      expect(await pair.store.extend(record.listenKey)).toBeUndefined();
      expect(await pair.store.remove(record.listenKey)).toBe(false);
      expect((await pair.store.open(o)).listenKey).not.toBe(record.listenKey);
      unsubscribe();
    });

    it('makes one key of concurrent opens by one API key', async () => {
      const o = owner();
      const records = await Promise.all(Array.from({ length: 20 }, () => pair.store.open(o)));
      expect(new Set(records.map((r) => r.listenKey)).size).toBe(1);
    });
  });
}

describeStore('memory', true, (clock) => {
  const store = new InMemoryListenKeyStore(clock);
  return { store, peer: store };
});
describeStore('redis', redisUrl !== undefined, (clock) => {
  const prefix = `test-${randomUUID()}:lk`;
  return {
    store: new RedisListenKeyStore(redisUrl!, clock, prefix),
    peer: new RedisListenKeyStore(redisUrl!, clock, prefix),
  };
});
