/**
 * Counters in fixed windows, shared by every replica that uses the same store: Redis in the
 * distributed mode, memory on the embedded default.
 */
export interface RateLimitStore {
  /** Adds `amount` to the counter of `key` in the window of `windowMs` containing `now`; returns the new total. */
  increment(key: string, amount: number, windowMs: number, now: number): Promise<number>;
  close(): Promise<void>;
}

export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { window: number; count: number; expires: number }>();
  private sweeps = 0;

  async increment(key: string, amount: number, windowMs: number, now: number): Promise<number> {
    const window = Math.floor(now / windowMs);
    const id = `${key}|${windowMs}`;
    let counter = this.counters.get(id);
    if (!counter || counter.window !== window) {
      counter = { window, count: 0, expires: (window + 1) * windowMs };
      this.counters.set(id, counter);
    }
    counter.count += amount;
    if (++this.sweeps % 10_000 === 0) this.sweep(now);
    return counter.count;
  }

  async close(): Promise<void> {
    this.counters.clear();
  }

  private sweep(now: number): void {
    for (const [id, counter] of this.counters) if (counter.expires <= now) this.counters.delete(id);
  }
}
