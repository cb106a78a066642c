import type { Money } from '../ledger-money';

interface Entry {
  key: string;
  price: Money;
}

/**
 * Keys ordered by a price, so that "which keys has this price crossed?" costs the number of keys
 * crossed (plus a logarithm), not the number held. An indexed binary heap: upsert and remove are
 * O(log n), the crossed keys are found by a walk that stops at the first entry on the safe side
 * (below a crossed parent may hide crossed children; below a safe one none can).
 *
 * `desc` keeps the highest price on top and crosses keys priced at or above a threshold (LONG
 * liquidation prices: a mark at or below them liquidates); `asc` the reverse (SHORT ones).
 */
export class PriceHeap {
  private readonly entries: Entry[] = [];
  private readonly slots = new Map<string, number>();

  constructor(readonly order: 'asc' | 'desc') {}

  get size(): number {
    return this.entries.length;
  }

  upsert(key: string, price: Money): void {
    const slot = this.slots.get(key);
    if (slot === undefined) {
      this.entries.push({ key, price });
      this.slots.set(key, this.entries.length - 1);
      this.up(this.entries.length - 1);
      return;
    }
    const entry = this.entries[slot]!;
    const before = entry.price;
    entry.price = price;
    if (this.above(price, before)) this.up(slot);
    else this.down(slot);
  }

  remove(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    const last = this.entries.pop()!;
    this.slots.delete(key);
    if (slot === this.entries.length) return;
    this.entries[slot] = last;
    this.slots.set(last.key, slot);
    this.up(slot);
    this.down(slot);
  }

  priceOf(key: string): Money | undefined {
    const slot = this.slots.get(key);
    return slot === undefined ? undefined : this.entries[slot]!.price;
  }

  /** The keys whose price is at or beyond `threshold` on this heap's side, in no particular order. */
  crossed(threshold: Money): string[] {
    const found: string[] = [];
    const stack = this.entries.length > 0 ? [0] : [];
    while (stack.length > 0) {
      const slot = stack.pop()!;
      const entry = this.entries[slot]!;
      if (!this.reaches(entry.price, threshold)) continue;
      found.push(entry.key);
      for (const child of [2 * slot + 1, 2 * slot + 2]) if (child < this.entries.length) stack.push(child);
    }
    return found;
  }

  private reaches(price: Money, threshold: Money): boolean {
    return this.order === 'desc' ? price.gte(threshold) : price.lte(threshold);
  }

  /** Whether a belongs nearer the top than b. */
  private above(a: Money, b: Money): boolean {
    return this.order === 'desc' ? a.gt(b) : a.lt(b);
  }

  private up(slot: number): void {
    let i = slot;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.above(this.entries[i]!.price, this.entries[parent]!.price)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(slot: number): void {
    let i = slot;
    for (;;) {
      const [left, right] = [2 * i + 1, 2 * i + 2];
      let top = i;
      if (left < this.entries.length && this.above(this.entries[left]!.price, this.entries[top]!.price)) top = left;
      if (right < this.entries.length && this.above(this.entries[right]!.price, this.entries[top]!.price)) top = right;
      if (top === i) return;
      this.swap(i, top);
      i = top;
    }
  }

  private swap(a: number, b: number): void {
    const [x, y] = [this.entries[a]!, this.entries[b]!];
    this.entries[a] = y;
    this.entries[b] = x;
    this.slots.set(y.key, a);
    this.slots.set(x.key, b);
  }
}
