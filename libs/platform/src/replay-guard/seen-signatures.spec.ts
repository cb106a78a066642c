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

  it('holds the signatures of the last window, not as many as its bound allows', async () => {
    const store = new InMemorySeenSignatures(1_000_000);
    for (let now = 0; now < 100_000; now += 10) await store.firstUse(`sig-${now}`, 6000, now);
    // One request every 10 ms with a 6 s window: 600 live at any time.
    expect(store.size).toBe(600);
    expect(await store.firstUse('sig-99990', 6000, 100_000)).toBe(false);
  });
});
