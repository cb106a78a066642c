import { TextCache } from './text-cache';

describe('TextCache', () => {
  it('holds at most its bound of bytes, however many answers pass through it', () => {
    const cache = new TextCache(10_000);
    for (let limit = 1; limit <= 1000; limit++)
      cache.get(`klines|BTCUSDT|1m|${limit}`, 1, () => 'x'.repeat(limit * 10));
    expect(cache.size).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeGreaterThan(9_000);
  });

  it('counts UTF-8 bytes, not characters, against its bound', () => {
    const cache = new TextCache(1_000);
    // 600 characters are 1,200 bytes: over the bound, served but not kept.
    expect(cache.get('a', 1, () => 'é'.repeat(600))).toHaveLength(1_200);
    expect(cache.size).toBe(0);
  });

  it('renders and encodes once per version: the same bytes until the version moves', () => {
    const cache = new TextCache(100);
    let renders = 0;
    const render = (): string => `text${++renders}`;
    const first = cache.get('k', 1, render);
    expect(first.toString()).toBe('text1');
    expect(cache.get('k', 1, render)).toBe(first);
    expect(cache.get('k', 2, render).toString()).toBe('text2');
    expect(renders).toBe(2);
  });

  it('serves an answer larger than the bound without keeping it', () => {
    const cache = new TextCache(100);
    expect(cache.get('big', 1, () => 'y'.repeat(500))).toHaveLength(500);
    expect(cache.size).toBeLessThanOrEqual(100);
  });
});
