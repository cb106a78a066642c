import { LRUCache } from 'lru-cache';

/**
 * Serialised answers, kept until the model they were written from changes: a hot GET is a map
 * lookup and a buffer write, and the JSON is built and encoded at most once per change, not per
 * request. Kept as UTF-8 bytes because that is what the socket takes: a string would be encoded
 * again, and its length in bytes counted again for content-length, on every answer (issue 16).
 * Bounded by the bytes it holds (MARKET_DATA_ANSWER_CACHE_BYTES), least recently used out first:
 * limits and intervals multiply the keys (a 1000-candle answer is about 130 KB), and a client
 * walking through every limit must not grow the process.
 */
export class TextCache {
  private readonly entries: LRUCache<string, { version: string | number; bytes: Buffer }>;

  constructor(maxBytes: number) {
    this.entries = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, entry.bytes.length + key.length),
    });
  }

  /** Bytes held, keys included. */
  get size(): number {
    return this.entries.calculatedSize;
  }

  get(key: string, version: string | number, render: () => string): Buffer {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.version === version) return entry.bytes;
    const bytes = Buffer.from(render());
    // An answer larger than the whole bound is served, never kept.
    if (bytes.length + key.length <= this.entries.maxSize) this.entries.set(key, { version, bytes });
    else this.entries.delete(key);
    return bytes;
  }
}
