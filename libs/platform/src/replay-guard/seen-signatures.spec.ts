import { InMemorySeenSignatures } from './seen-signatures';

describe('in-memory seen signatures', () => {
  it('forgets a signature once its time is over', async () => {
    const store = new InMemorySeenSignatures(10);
    expect(await store.firstUse('a', 1000, 5000)).toBe(true);
    expect(await store.firstUse('a', 1000, 5999)).toBe(false);
    expect(await store.firstUse('a', 1000, 6000)).toBe(true);
  });

  it('stays within its bound: expired entries make room, and a table full of live ones refuses with -1016 instead of forgetting', async () => {
    const store = new InMemorySeenSignatures(2);
    await store.firstUse('a', 1000, 0);
    await store.firstUse('b', 5000, 0);
    await expect(store.firstUse('c', 1000, 500)).rejects.toMatchObject({ code: -1016 });
    expect(await store.firstUse('b', 1000, 500)).toBe(false);
    expect(await store.firstUse('c', 1000, 1000)).toBe(true);
    expect(store.size).toBe(2);
  });
});
