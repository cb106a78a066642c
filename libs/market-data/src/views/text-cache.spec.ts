import { TextCache } from './text-cache';

describe('TextCache', () => {
  it('holds at most its bound of characters, however many answers pass through it', () => {
    const cache = new TextCache(10_000);
    for (let limit = 1; limit <= 1000; limit++)
      cache.get(`klines|BTCUSDT|1m|${limit}`, 1, () => 'x'.repeat(limit * 10));
    expect(cache.size).toBeLessThanOrEqual(10_000);
    expect(cache.size).toBeGreaterThan(9_000);
  });

  it('renders again when the version moved, and serves an answer larger than the bound without keeping it', () => {
    const cache = new TextCache(100);
    let renders = 0;
    const render = (): string => `text${++renders}`;
    expect(cache.get('k', 1, render)).toBe('text1');
    expect(cache.get('k', 1, render)).toBe('text1');
    expect(cache.get('k', 2, render)).toBe('text2');
    expect(cache.get('big', 1, () => 'y'.repeat(500))).toHaveLength(500);
    expect(cache.size).toBeLessThanOrEqual(100);
  });
});
