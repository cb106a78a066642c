import { LRUCache } from 'lru-cache';

/**
 * Serialised answers, kept until the model they were written from changes: a hot GET is a map
 * lookup and a string write, and the JSON is built at most once per change, not per request.
 * Bounded by the characters it holds (MARKET_DATA_ANSWER_CACHE_BYTES), least recently used out
 * first: limits and intervals multiply the keys (a 1000-candle answer is about 130 KB), and a
 * client walking through every limit must not grow the process.
 */
export class TextCache {
  private readonly entries: LRUCache<string, { version: string | number; text: string }>;

  constructor(maxChars: number) {
    this.entries = new LRUCache({
      maxSize: maxChars,
      sizeCalculation: (entry, key) => Math.max(1, entry.text.length + key.length),
    });
  }

  /** Characters held, keys included. */
  get size(): number {
    return this.entries.calculatedSize;
  }

  get(key: string, version: string | number, render: () => string): string {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.version === version) return entry.text;
    const text = render();
    // An answer larger than the whole bound is served, never kept.
    if (text.length + key.length <= this.entries.maxSize) this.entries.set(key, { version, text });
    else this.entries.delete(key);
    return text;
  }
}
